"""``torch.utils.data``: datasets, samplers and the ``DataLoader`` that cuts a dataset into batches.

A *dataset* is anything with ``len(ds)`` and ``ds[i]`` (a ``TensorDataset``,
a list, a ``range``).  ``DataLoader(ds, batch_size, shuffle)`` draws the
indices (in order, or a random permutation for each epoch), fetches
``ds[i]`` for each index of a batch and merges the samples with
``default_collate``: tensors are stacked along a new dimension 0, Python
numbers become a tensor, tuples are merged element by element.

With ``shuffle=True`` the order comes from the global generator exactly as in
PyTorch (one int64 draw for the iterator's base seed, one for the sampler's
seed, then ``randperm`` of a generator seeded with it), so
``torch.manual_seed(0)`` gives PyTorch's batches.  ``num_workers`` is
accepted, but the batches are always loaded in the main process.
"""

import collections.abc
import math
import warnings

import numpy as np

from ..core.tensor import Tensor
from ..ops.creation import as_tensor, tensor
from ..ops.random import randperm
from ..ops.views import stack
from ..torch_compat import dtypes as _dtype
from ..torch_compat.names import public_module
from ..torch_compat.random import Generator, default_generator

__all__ = ["Dataset", "TensorDataset", "Subset", "random_split", "Sampler", "SequentialSampler", "RandomSampler",
           "BatchSampler", "DataLoader", "default_collate", "default_convert"]


class Dataset:
    """Base class of map-style datasets: define ``__getitem__`` (and ``__len__``). Mirrors
    ``torch.utils.data.Dataset``."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")


class TensorDataset(Dataset):
    """Samples ``(t1[i], t2[i], ...)`` of tensors that share their first dimension. Mirrors
    ``torch.utils.data.TensorDataset``.

    ``TensorDataset(X, y)[i]`` is the tuple ``(X[i], y[i])``; ``len`` is ``X.size(0)``.

    Raises:
        AssertionError: first dimensions that differ ("Size mismatch between tensors").
    """

    def __init__(self, *tensors):
        assert all(tensors[0].size(0) == t.size(0) for t in tensors), "Size mismatch between tensors"
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices`` (what ``random_split`` returns). Mirrors
    ``torch.utils.data.Subset``."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=default_generator):
    """Split ``dataset`` into non-overlapping ``Subset`` objects of the given lengths (or fractions summing to
    1) after a random permutation (``randperm`` of ``generator``, as in PyTorch). Mirrors
    ``torch.utils.data.random_split``.

    Raises:
        ValueError: a fraction outside [0, 1]; lengths that do not sum to ``len(dataset)`` ("Sum of input
            lengths does not equal the length of the input dataset!").
    """
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        sizes = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            sizes.append(math.floor(len(dataset) * frac))
        for i in range(len(dataset) - sum(sizes)):
            sizes[i % len(sizes)] += 1
        lengths = sizes
        for i, length in enumerate(lengths):
            if length == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.",
                              stacklevel=2)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = randperm(sum(lengths), generator=generator).tolist()
    out, offset = [], 0
    for length in lengths:
        out.append(Subset(dataset, indices[offset:offset + length]))
        offset += length
    return out


# ---------------------------------------------------------------------------
# Samplers: which indices, in which order
# ---------------------------------------------------------------------------

class Sampler:
    """Base class of the samplers (iterables of dataset indices). Mirrors ``torch.utils.data.Sampler``."""

    def __init__(self, data_source=None):
        pass


class SequentialSampler(Sampler):
    """``0, 1, ..., len(data_source) - 1``. Mirrors ``torch.utils.data.SequentialSampler``."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


def _int64_draw(generator):
    """``torch.empty((), dtype=torch.int64).random_(generator=generator).item()``: one 64-bit draw mod 2**63."""
    gen = default_generator if generator is None else generator
    return int(gen.random64(1)[0] % np.uint64(2 ** 63))


class RandomSampler(Sampler):
    """A new random permutation of the indices at each iteration. Mirrors ``torch.utils.data.RandomSampler``.

    Without ``generator``, each iteration seeds a fresh generator with one draw
    of the global one (PyTorch's rule, so the order follows ``torch.manual_seed``).
    ``replacement=True`` draws ``num_samples`` indices with replacement.
    """

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={self.replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples="
                             f"{self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            generator = Generator()
            generator.manual_seed(_int64_draw(None))
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from generator.randint(32, 0, n).tolist()
            yield from generator.randint(self.num_samples % 32, 0, n).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from generator.randperm(n).tolist()
            yield from generator.randperm(n).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Groups the indices of ``sampler`` into lists of ``batch_size`` (the last one shorter unless
    ``drop_last``). Mirrors ``torch.utils.data.BatchSampler``.

    Raises:
        ValueError: a ``batch_size`` that is not a positive int, a ``drop_last`` that is not a bool.
    """

    def __init__(self, sampler, batch_size, drop_last):
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        batch = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else (n + self.batch_size - 1) // self.batch_size


# ---------------------------------------------------------------------------
# Collating samples into a batch
# ---------------------------------------------------------------------------

_COLLATE_ERROR = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
                  "found {}")


def default_collate(batch):
    """Merge a list of samples into one batch. Mirrors ``torch.utils.data.default_collate``.

    * tensors -> ``torch.stack(batch)`` (a new dimension 0);
    * NumPy arrays -> tensors, stacked; NumPy scalars -> one tensor;
    * ``float`` -> a float64 tensor, ``int`` -> an int64 tensor, ``bool`` -> an int64 tensor... as PyTorch;
    * ``str`` -> the list unchanged;
    * dicts -> a dict of merged values; tuples and lists -> a *list* of merged
      fields (a named tuple stays a named tuple).

    Raises:
        RuntimeError: samples whose sequences differ in length ("each element in list of batch should be of
            equal size"); stacking tensors of different shapes (``stack``'s message).
        TypeError: an element of another type (PyTorch's message).
    """
    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(batch, 0)
    if type(elem).__module__ == "numpy" and type(elem).__name__ not in ("str_", "string_"):
        if type(elem).__name__ in ("ndarray", "memmap"):
            if elem.dtype.kind in "OSUV":
                raise TypeError(_COLLATE_ERROR.format(elem.dtype))
            return default_collate([as_tensor(b) for b in batch])
        if elem.shape == ():
            return as_tensor(np.array(batch))
    if isinstance(elem, float):
        return tensor(batch, dtype=_dtype.float64)
    if isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if not all(len(e) == size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = [default_collate(samples) for samples in zip(*batch)]
        if isinstance(elem, tuple):
            return transposed
        try:
            return type(elem)(transposed)
        except TypeError:
            return transposed
    raise TypeError(_COLLATE_ERROR.format(type(elem)))


def default_convert(data):
    """What ``DataLoader(batch_size=None)`` does to each sample: NumPy arrays become tensors, containers are
    converted element-wise, everything else is returned as is. Mirrors ``torch.utils.data.default_convert``."""
    if type(data).__module__ == "numpy" and type(data).__name__ == "ndarray" and data.dtype.kind not in "OSUV":
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return {k: default_convert(v) for k, v in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return type(data)([default_convert(d) for d in data]) if isinstance(data, list) else \
            [default_convert(d) for d in data]
    return data


# ---------------------------------------------------------------------------
# DataLoader
# ---------------------------------------------------------------------------

class DataLoader:
    """Iterate over ``dataset`` in batches. Mirrors ``torch.utils.data.DataLoader`` (map-style datasets, one
    process).

    ``for xb, yb in DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True): ...`` gives
    ``xb`` of shape ``(32, *X.shape[1:])`` (the last batch shorter unless
    ``drop_last=True``); ``len(loader)`` is the number of batches.

    Args:
        dataset: ``len`` and ``[i]``; batch_size: samples per batch (default 1; ``None``: no batching);
        shuffle: a new random order at each epoch (from the global generator, or ``generator``);
        sampler, batch_sampler: custom index orders; collate_fn: merges a list of samples (default
        ``default_collate``); drop_last: drop the last incomplete batch. Other PyTorch arguments are
        accepted and ignored.

    Raises:
        ValueError: ``shuffle`` with a ``sampler``; ``batch_sampler`` with ``batch_size``/``shuffle``/
            ``sampler``/``drop_last``; a non-positive ``batch_size`` (PyTorch's messages).
    """

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                                 "and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with "
                             "drop_last")
        if sampler is None:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.num_workers = num_workers
        self.generator = generator
        self.collate_fn = collate_fn if collate_fn is not None else (
            default_collate if batch_sampler is not None else default_convert)
        self.pin_memory = pin_memory
        self.timeout = timeout

    def __iter__(self):
        indices = iter(self.batch_sampler if self.batch_sampler is not None else self.sampler)
        _int64_draw(self.generator)        # PyTorch's iterator draws its workers' base seed at once
        return self._batches(indices)

    def _batches(self, indices):
        if self.batch_sampler is not None:
            for batch in indices:
                yield self.collate_fn([self.dataset[i] for i in batch])
        else:
            for i in indices:
                yield self.collate_fn(self.dataset[i])

    def __len__(self):
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)


# Each class prints under PyTorch's module path, course_lib in front (README.md, "Class names"):
# type(DataLoader(ds)) is <class 'course_lib.utils.data.dataloader.DataLoader'>.
public_module("course_lib.utils.data.dataset", Dataset, TensorDataset, Subset)
public_module("course_lib.utils.data.sampler", Sampler, SequentialSampler, RandomSampler, BatchSampler)
public_module("course_lib.utils.data.dataloader", DataLoader)
