"""torch.save / torch.load: course_lib writes and reads PyTorch's file format, checked against PyTorch 2.13.

* The records of a file (data.pkl, the storages, byteorder, version, the serialization id) are byte for byte
  those PyTorch writes for the same objects.
* A file saved by course_lib loads in PyTorch with ``weights_only=True`` and the reverse, with the same
  values, dtypes, shapes, strides, storage offsets, ``requires_grad`` and storage sharing.
* Models and optimizers trained on one side continue on the other (state dicts, optimizer state dicts).
* Broken, empty, garbage, truncated and missing files raise what PyTorch raises.
"""

import collections
import io
import pickle
import zipfile

import numpy as np
import pytest

import course_lib
from tests.conftest import requires_torch

torch = pytest.importorskip("torch")

pytestmark = requires_torch
ENGINES = {"course_lib": course_lib, "torch": torch}


def describe(obj, engine, storages=None):
    """Plain data for an object: its structure, and for each tensor its dtype, shape, strides, offset,
    requires_grad, values, and which storage it views (numbered in order of first appearance)."""
    storages = {} if storages is None else storages
    if isinstance(obj, engine.Tensor):
        key = (obj.untyped_storage().data_ptr(), obj.untyped_storage().nbytes())
        group = storages.setdefault(key, len(storages)) if key[0] else "empty"
        kind = "Parameter" if isinstance(obj, engine.nn.Parameter) else "Tensor"
        return {"tensor": kind, "dtype": str(obj.dtype), "shape": list(obj.shape), "stride": list(obj.stride()),
                "offset": obj.storage_offset(), "requires_grad": obj.requires_grad,
                "values": obj.detach().cpu().numpy().tolist(), "storage": group,
                "storage_bytes": obj.untyped_storage().nbytes()}
    if isinstance(obj, engine.dtype):
        return {"dtype": str(obj)}
    if isinstance(obj, engine.device):
        return {"device": str(obj)}
    if isinstance(obj, engine.Size):
        return {"Size": list(obj)}
    if isinstance(obj, dict):
        out = {"dict": type(obj).__name__, "items": [(k, describe(v, engine, storages)) for k, v in obj.items()]}
        if hasattr(obj, "_metadata"):
            out["_metadata"] = describe(obj._metadata, engine, storages)
        return out
    if isinstance(obj, (list, tuple)):
        return {type(obj).__name__: [describe(v, engine, storages) for v in obj]}
    if isinstance(obj, set):
        return {"set": sorted(obj)}
    return obj


# ---------------------------------------------------------------------------------------------- objects

def views_and_dtypes(t):
    x = t.arange(12.0).reshape(3, 4)
    return {"x": x, "row": x[1], "cols": x[:, 1:3], "t": x.t(), "flat_tail": x.view(-1)[5:], "expanded":
            t.tensor([1.0, 2.0]).expand(3, 2), "scalar": t.tensor(3.5), "empty": t.zeros(0, 3),
            "int16": t.tensor([[1, -2], [3, 4]], dtype=t.int16), "int64": t.arange(5), "int32":
            t.tensor([7], dtype=t.int32), "int8": t.tensor([-5, 5], dtype=t.int8), "uint8":
            t.tensor([0, 255], dtype=t.uint8), "bool": t.tensor([True, False, True]), "half":
            t.tensor([0.5, -1.25], dtype=t.float16), "double": t.tensor([1e-300, 2.0], dtype=t.float64)}


def shared_storage(t):
    a = t.linspace(0, 1, 6)
    b = a[2:]
    return [a, b, b[::2], a, {"again": b}]


def grads_and_parameters(t):
    w = t.ones(2, 3, requires_grad=True)
    p = t.nn.Parameter(t.full((2,), 0.25))
    frozen = t.nn.Parameter(t.zeros(1), requires_grad=False)
    return {"w": w, "non_leaf": w * 2, "p": p, "frozen": frozen, "int_param": t.nn.Parameter(t.arange(3), False)}


def plain_data(t):
    return {"epoch": 7, "lr": 0.001, "name": "digits", "none": None, "flag": True, "pair": (1, 2.5),
            "list": [1, [2, [3]]], "bytes": b"\x00\xff", "set": {3, 1}, "complex": 1 - 2j, "big": 2 ** 70,
            "neg": -(2 ** 40), "dtype": t.float64, "device": t.device("cpu"), "size": t.Size([2, 3]),
            "od": collections.OrderedDict(b=1, a=2), "counter": collections.Counter("abca")}


def sequential_state(t):
    t.manual_seed(0)
    net = t.nn.Sequential(t.nn.Linear(4, 8), t.nn.ReLU(), t.nn.Sequential(t.nn.Linear(8, 3)))
    return net.state_dict()


def adam_checkpoint(t):
    t.manual_seed(1)
    net = t.nn.Linear(3, 2)
    opt = t.optim.Adam(net.parameters(), lr=0.01)
    x = t.linspace(-1, 1, 15).reshape(5, 3)
    for _ in range(3):
        opt.zero_grad()
        (net(x) ** 2).mean().backward()
        opt.step()
    return {"model": net.state_dict(), "optimizer": opt.state_dict(), "epoch": 3}


def optimizer_states(t):
    """Optimizer state dicts whose numbers both engines compute exactly (gradients set by hand)."""
    out = {}
    for name, make in (("sgd", lambda ps: t.optim.SGD(ps, lr=0.5, momentum=0.9)),
                       ("adam", lambda ps: t.optim.Adam(ps, lr=0.0))):
        p, q = t.nn.Parameter(t.tensor([1.0, 2.0])), t.nn.Parameter(t.ones(2, 2))
        opt = make([p, q])
        p.grad, q.grad = t.tensor([0.5, -1.0]), t.full((2, 2), 2.0)
        opt.step()
        out[name] = opt.state_dict()
    return out


OBJECTS = {"views_and_dtypes": views_and_dtypes, "shared_storage": shared_storage,
           "grads_and_parameters": grads_and_parameters, "plain_data": plain_data,
           "sequential_state": sequential_state, "optimizer_states": optimizer_states,
           "adam_checkpoint": adam_checkpoint, "one_tensor": lambda t: t.arange(6.0),
           "many_storages": lambda t: [t.tensor([float(i)]) for i in range(70)]}
TRAINED = {"adam_checkpoint"}    # values from training: the engines may differ in a last bit, the format does not


def saved(engine, obj, name="model.pt", tmp_path=None):
    if tmp_path is None:
        buf = io.BytesIO()
        engine.save(obj, buf)
        return buf.getvalue()
    path = tmp_path / name
    engine.save(obj, path)
    return path.read_bytes()


def records(data):
    z = zipfile.ZipFile(io.BytesIO(data))
    return [(n, z.read(n)) for n in z.namelist()]


@pytest.mark.parametrize("name", sorted(set(OBJECTS) - TRAINED))
def test_the_records_are_pytorchs_byte_for_byte(name):
    """data.pkl, every storage, byteorder, version and the serialization id equal what torch.save writes."""
    ours = records(saved(course_lib, OBJECTS[name](course_lib)))
    theirs = records(saved(torch, OBJECTS[name](torch)))
    assert [n for n, _ in ours] == [n for n, _ in theirs]
    for (n, a), (_, b) in zip(ours, theirs):
        assert a == b, n


def test_the_folder_is_named_after_the_file(tmp_path):
    for name, folder in (("model.pt", "model"), ("a.b.pt", "a.b"), ("weights", "weights")):
        ours = [n for n, _ in records(saved(course_lib, course_lib.ones(2), name, tmp_path))]
        theirs = [n for n, _ in records(saved(torch, torch.ones(2), name, tmp_path))]
        assert ours == theirs and ours[0] == f"{folder}/data.pkl"


def test_records_are_aligned_to_64_bytes_and_saving_is_deterministic():
    data = saved(course_lib, OBJECTS["views_and_dtypes"](course_lib))
    z = zipfile.ZipFile(io.BytesIO(data))
    for info in z.infolist():
        header = data[info.header_offset:info.header_offset + 30]
        start = info.header_offset + 30 + int.from_bytes(header[26:28], "little") + \
            int.from_bytes(header[28:30], "little")
        assert start % 64 == 0, info.filename
    assert saved(course_lib, OBJECTS["views_and_dtypes"](course_lib)) == data


@pytest.mark.parametrize("name", OBJECTS)
@pytest.mark.parametrize("writer,reader", [("course_lib", "torch"), ("torch", "course_lib"),
                                           ("course_lib", "course_lib")])
def test_loads_with_the_same_values_sharing_and_layout(name, writer, reader):
    w, r = ENGINES[writer], ENGINES[reader]
    original = OBJECTS[name](w)
    loaded = r.load(io.BytesIO(saved(w, original)), weights_only=True)
    assert describe(loaded, r) == describe(original, w)
    tensors = [v for v in _walk(loaded) if isinstance(v, r.Tensor)]
    assert all(t.is_leaf and t.grad is None and t._base is None for t in tensors)


def _walk(obj):
    yield obj
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _walk(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _walk(v)


def test_loaded_views_share_memory_and_writes_show_through():
    a = course_lib.arange(6.0)
    buf = io.BytesIO()
    course_lib.save({"a": a, "tail": a[3:]}, buf)
    buf.seek(0)
    got = course_lib.load(buf)
    assert got["tail"].storage_offset() == 3 and got["tail"]._base is None and got["a"]._base is None
    got["a"][4] = 40.0
    assert got["tail"].tolist() == [3.0, 40.0, 5.0]
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]      # a copy of the saved data, not the saved tensor


def test_a_view_saves_its_whole_storage_and_clone_saves_only_itself():
    big = course_lib.zeros(10_000)
    whole, alone = io.BytesIO(), io.BytesIO()
    course_lib.save(big[:10], whole)
    course_lib.save(big[:10].clone(), alone)
    assert len(whole.getvalue()) > 40_000 > 2_000 > len(alone.getvalue())
    t_whole = io.BytesIO()
    torch.save(torch.zeros(10_000)[:10], t_whole)
    assert [len(d) for _, d in records(whole.getvalue())] == [len(d) for _, d in records(t_whole.getvalue())]


# ----------------------------------------------------------------------------- models and optimizers

def _train(engine, net, opt, steps, seed):
    g = np.random.default_rng(seed)
    x = engine.tensor(g.normal(size=(16, 4)).astype(np.float32))
    y = engine.tensor(g.normal(size=(16, 2)).astype(np.float32))
    loss_fn = engine.nn.MSELoss()
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
    return x


def _model(engine):
    engine.manual_seed(3)
    return engine.nn.Sequential(engine.nn.Linear(4, 8), engine.nn.ReLU(), engine.nn.Linear(8, 2))


@pytest.mark.parametrize("make_opt", [lambda e, p: e.optim.Adam(p, lr=0.01),
                                      lambda e, p: e.optim.SGD(p, lr=0.05, momentum=0.9),
                                      lambda e, p: e.optim.AdamW(p, lr=0.01, weight_decay=0.1)],
                         ids=["Adam", "SGD-momentum", "AdamW"])
@pytest.mark.parametrize("first,second", [("course_lib", "torch"), ("torch", "course_lib")])
def test_training_resumes_on_the_other_side(tmp_path, make_opt, first, second):
    """Train 5 steps on one side, save model and optimizer, load on the other side, train 5 more: the same
    parameters as 10 steps on one side."""
    a, b = ENGINES[first], ENGINES[second]
    net = _model(a)
    opt = make_opt(a, net.parameters())
    _train(a, net, opt, 5, seed=0)
    a.save({"model": net.state_dict(), "optimizer": opt.state_dict()}, tmp_path / "ckpt.pt")

    ckpt = b.load(tmp_path / "ckpt.pt", weights_only=True)
    net2 = _model(b)
    opt2 = make_opt(b, net2.parameters())
    assert str(net2.load_state_dict(ckpt["model"])) == "<All keys matched successfully>"
    opt2.load_state_dict(ckpt["optimizer"])
    assert ckpt["optimizer"]["param_groups"] == opt.state_dict()["param_groups"]
    _train(b, net2, opt2, 5, seed=1)

    ref = _model(a)
    ref_opt = make_opt(a, ref.parameters())
    _train(a, ref, ref_opt, 5, seed=0)
    _train(a, ref, ref_opt, 5, seed=1)
    for (name, p), (_, q) in zip(net2.state_dict().items(), ref.state_dict().items()):
        np.testing.assert_allclose(p.numpy(), q.numpy(), rtol=1e-5, atol=1e-6, err_msg=name)


@pytest.mark.parametrize("writer,reader", [("course_lib", "torch"), ("torch", "course_lib")])
def test_a_linear_layer_predicts_the_same_after_the_trip(tmp_path, writer, reader):
    w, r = ENGINES[writer], ENGINES[reader]
    w.manual_seed(5)
    layer = w.nn.Linear(3, 2)
    w.save(layer.state_dict(), tmp_path / "linear.pt")
    sd = r.load(tmp_path / "linear.pt")
    assert list(sd) == ["weight", "bias"] and dict(sd._metadata) == {"": {"version": 1}}
    other = r.nn.Linear(3, 2)
    other.load_state_dict(sd)
    for name, p in layer.named_parameters():
        np.testing.assert_array_equal(getattr(other, name).detach().numpy(), p.detach().numpy())
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(4, 3)
    with w.no_grad(), r.no_grad():     # (the two engines' addmm may round a last bit differently)
        np.testing.assert_allclose(other(r.tensor(x)).numpy(), layer(w.tensor(x)).numpy(), rtol=1e-6, atol=1e-7)


def test_state_dict_metadata_is_pytorchs():
    net = OBJECTS["sequential_state"]
    ours, theirs = net(course_lib), net(torch)
    assert dict(ours._metadata) == dict(theirs._metadata) == {"": {"version": 1}, "0": {"version": 1},
                                                              "1": {"version": 1}, "2": {"version": 1},
                                                              "2.0": {"version": 1}}


# ------------------------------------------------------------------------------------- devices

def test_cuda_tensors_save_their_device_and_need_map_location_on_a_cpu(tmp_path):
    with course_lib.cuda.simulate():
        x = course_lib.arange(4.0, device="cuda")
        course_lib.save({"x": x, "half": x[2:]}, tmp_path / "gpu.pt")
        back = course_lib.load(tmp_path / "gpu.pt")
        assert back["x"].device.type == "cuda" and back["half"].storage_offset() == 2
    for engine in ENGINES.values():
        with pytest.raises(RuntimeError) as info:
            engine.load(tmp_path / "gpu.pt")
        assert str(info.value).startswith("Attempting to deserialize object on a CUDA device but "
                                          "torch.cuda.is_available() is False.")
        for where in ("cpu", engine.device("cpu"), {"cuda:0": "cpu"}):
            got = engine.load(tmp_path / "gpu.pt", map_location=where)
            assert got["x"].device.type == "cpu" and got["half"].tolist() == [2.0, 3.0]


def test_map_location_moves_storages_to_the_simulated_gpu(tmp_path):
    torch.save(torch.arange(3.0), tmp_path / "cpu.pt")
    with course_lib.cuda.simulate():
        got = course_lib.load(tmp_path / "cpu.pt", map_location="cuda")
        assert str(got.device) == "cuda:0" and got.tolist() == [0.0, 1.0, 2.0]


# ------------------------------------------------------------------------------------- bad files

def outcome(engine, fn, *args, **kwargs):
    try:
        result = fn(*args, **kwargs)
    except BaseException as e:  # noqa: B036 - the exception is the result
        return type(e).__name__, str(e)
    return "ok", repr(describe(result, engine))


def _bad_files(tmp_path):
    good = saved(torch, {"w": torch.arange(8.0), "b": torch.ones(2)})
    pkl_case = pickle.dumps({"a": 1}, protocol=4)
    files = {
        "empty": b"",
        "garbage": b"hello, this is not a checkpoint\n" * 4,
        "one_byte": good[:1],
        "three_bytes": good[:3],
        "zip_magic_only": good[:4],
        "plain_pickle": pkl_case,
        "magic_only": pickle.dumps(0x1950a86a20f9469cfc6c, protocol=2),
        "random_bytes": np.random.default_rng(0).integers(0, 256, 500).astype(np.uint8).tobytes(),
    }
    for cut in (10, 100, len(good) // 2, len(good) - 22, len(good) - 1):
        files[f"truncated_at_{cut}"] = good[:cut]
    # past 4096 bytes PyTorch's reader seeks before the start of the file (miniz's unsigned arithmetic)
    large = saved(torch, {"w": torch.arange(30_000.0)})
    for cut in (4096, 4097, 8192, 20_000, len(large) // 2, len(large) - 1):
        files[f"large_truncated_at_{cut}"] = large[:cut]
    recs = records(good)

    def rebuilt(drop=(), change=None, prefix=None):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as z:
            for name, data in recs:
                short = name.split("/", 1)[1]
                if short in drop:
                    continue
                z.writestr(f"{prefix}/{short}" if prefix else name, (change or {}).get(short, data))
        return out.getvalue()

    other = io.BytesIO()
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("hello.txt", "hi")
    files.update({
        "other_zip": other.getvalue(),
        "no_data_pkl": rebuilt(drop=("data.pkl",)),
        "no_storage_record": rebuilt(drop=("data/0",)),
        "no_version": rebuilt(drop=("version",)),
        "version_0": rebuilt(change={"version": b"0\n"}),
        "version_99": rebuilt(change={"version": b"99\n"}),
        "short_storage": rebuilt(change={"data/0": b"\0" * 8}),
        "no_byteorder": rebuilt(drop=("byteorder",)),
        "big_endian": rebuilt(change={"byteorder": b"big"}),
        "unknown_byteorder": rebuilt(change={"byteorder": b"middle"}),
        "garbage_pickle": rebuilt(change={"data.pkl": b"garbage!"}),
        "empty_pickle": rebuilt(change={"data.pkl": b""}),
        "other_folder": rebuilt(prefix="zzz"),
        "nested_folder": rebuilt(prefix="a/b"),
        "flipped_storage_byte": good.replace(np.float32(3.0).tobytes(), np.float32(-3.0).tobytes(), 1),
    })
    return files




@pytest.fixture(scope="module")
def bad_files(tmp_path_factory):
    return _bad_files(tmp_path_factory.mktemp("bad"))


@pytest.mark.filterwarnings("ignore:Detected pickle protocol")
@pytest.mark.parametrize("weights_only", [True, False])
def test_bad_files_raise_what_pytorch_raises(tmp_path, bad_files, weights_only):
    failures = []
    for name, data in bad_files.items():
        path = tmp_path / f"{name}.pt"
        path.write_bytes(data)
        theirs = outcome(torch, torch.load, path, weights_only=weights_only)
        ours = outcome(course_lib, course_lib.load, path, weights_only=weights_only)
        if theirs[0] == "ok" or ours[0] != "NotImplementedError":
            if ours != theirs:
                failures.append((name, ours, theirs))
        else:       # a legacy-format file: PyTorch goes on reading it, course_lib says it does not read that format
            assert name == "magic_only" and "legacy format" in ours[1]
        from_buffer = outcome(course_lib, course_lib.load, io.BytesIO(data), weights_only=weights_only)
        if ours[0] != "NotImplementedError" and from_buffer != outcome(torch, torch.load, io.BytesIO(data),
                                                                       weights_only=weights_only):
            failures.append((name + " (from a buffer)", from_buffer, "as above"))
    assert not failures, "\n".join(f"{n}:\n  ours   {o}\n  theirs {t}" for n, o, t in failures)


def test_a_missing_file_and_a_folder():
    for engine in ENGINES.values():
        with pytest.raises(FileNotFoundError, match=r"\[Errno 2\] No such file or directory: 'no/such.pt'"):
            engine.load("no/such.pt")
    assert outcome(course_lib, lambda: course_lib.load(".")) == outcome(torch, lambda: torch.load("."))


def test_an_unsafe_global_is_refused_with_pytorchs_message(tmp_path):
    torch.save({"f": collections.namedtuple}, tmp_path / "code.pt")
    theirs = outcome(torch, lambda: torch.load(tmp_path / "code.pt"))
    ours = outcome(course_lib, lambda: course_lib.load(tmp_path / "code.pt"))
    assert ours == theirs and theirs[0] == "UnpicklingError" and "GLOBAL collections.namedtuple" in ours[1]
    got = course_lib.load(tmp_path / "code.pt", weights_only=False)        # a trusted file: anything goes
    assert got["f"] is collections.namedtuple


def test_weights_only_false_loads_pytorch_names_as_course_lib_objects(tmp_path):
    torch.save({"w": torch.nn.Parameter(torch.ones(2)), "d": torch.int16}, tmp_path / "p.pt")
    got = course_lib.load(tmp_path / "p.pt", weights_only=False)
    assert isinstance(got["w"], course_lib.nn.Parameter) and got["d"] is course_lib.int16


def test_load_arguments_as_pytorch():
    buf = io.BytesIO()
    course_lib.save(course_lib.ones(1), buf)
    for engine in ENGINES.values():
        buf.seek(0)
        with pytest.raises(RuntimeError, match="^Can not safely load weights when explicit pickle_module is "
                                               "specified$"):
            engine.load(buf, pickle_module=pickle, weights_only=True)
    assert outcome(course_lib, lambda: course_lib.load(123)) == outcome(torch, lambda: torch.load(123))


def test_save_errors_as_pytorch(tmp_path):
    for target in (tmp_path / "missing" / "x.pt", tmp_path, 123):
        assert outcome(course_lib, course_lib.save, course_lib.ones(1), target) == \
            outcome(torch, torch.save, torch.ones(1), target), target
    for engine in ENGINES.values():
        x = engine.arange(4.0)
        with pytest.raises(RuntimeError, match="^Cannot save multiple tensors or storages that view the same "
                                               "data as different types$"):
            engine.save([x, x.view(engine.int32)], io.BytesIO())


def test_dtypes_course_lib_lacks_are_refused_clearly(tmp_path):
    torch.save(torch.ones(2, dtype=torch.bfloat16), tmp_path / "bf16.pt")
    with pytest.raises(TypeError, match="course_lib cannot load tensors of dtype torch.bfloat16"):
        course_lib.load(tmp_path / "bf16.pt")
