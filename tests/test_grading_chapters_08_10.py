"""The exercise tests of chapters 08 and 10 judge behaviour: typical mistakes fail with the reason that
teaches, and the facts the tests rely on (copy counts of the simulated device) are what the simulator does."""

import os
import tempfile

import pytest

import course_lib as torch
from course_lib.grading import run_check
from course_lib.grading.chapters import ch10_gpu_and_parallel as ch10


def verdict(chapter, name, **ns):
    return run_check(chapter, name, ns)


# ------------------------------------------------------------------------------------------ chapter 08

def test_a_batch_iterator_that_does_not_shuffle_fails():
    def batches(X, y, batch_size):
        for start in range(0, len(X), batch_size):
            yield X[start:start + batch_size], y[start:start + batch_size]
    v = verdict("08", "q1", batches=batches)
    assert v.status == "failed" and "样本的顺序没有打乱" in v.reason


def test_a_batch_iterator_with_pythons_random_is_not_reproducible():
    import random

    def batches(X, y, batch_size):
        order = list(range(len(X)))
        random.shuffle(order)
        for start in range(0, len(X), batch_size):
            index = torch.tensor(order[start:start + batch_size])
            yield X[index], y[index]
    v = verdict("08", "q1", batches=batches)
    assert v.status == "failed" and "torch.manual_seed 相同时" in v.reason


def test_a_batch_iterator_that_drops_the_last_batch_fails():
    def batches(X, y, batch_size):
        order = torch.randperm(len(X))
        for start in range(0, len(X) - batch_size + 1, batch_size):
            index = order[start:start + batch_size]
            yield X[index], y[index]
    v = verdict("08", "q1", batches=batches)
    assert v.status == "failed" and "各批的大小应为 [3, 3, 3, 1]" in v.reason


def test_a_training_step_without_zero_grad_fails_on_stale_gradients():
    def train_step(model, loss_fn, optimizer, X, y):
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
        return loss.item()
    v = verdict("08", "q2", train_step=train_step)
    assert v.status == "failed" and v.case == 1 and "更新后的 weight" in v.reason


def test_a_training_step_returning_the_tensor_fails():
    def train_step(model, loss_fn, optimizer, X, y):
        optimizer.zero_grad()
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
        return loss
    v = verdict("08", "q2", train_step=train_step)
    assert v.status == "failed" and "loss.item()" in v.reason


def _fit(zero_grad, squeeze):
    def fit(model, X, y, epochs, lr, batch_size):
        loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), batch_size=batch_size)
        optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        for _ in range(epochs):
            for xb, yb in loader:
                out = model(xb)
                loss = torch.nn.functional.mse_loss(out.squeeze(1) if squeeze else out, yb)
                if zero_grad:
                    optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        return model
    return fit


@pytest.mark.filterwarnings("ignore:Using a target size")
@pytest.mark.parametrize("zero_grad,squeeze", [(True, False), (False, True)])
def test_fixing_only_one_of_the_two_training_bugs_fails(zero_grad, squeeze):
    assert verdict("08", "q3", fit=_fit(zero_grad, squeeze)).status == "failed"
    assert verdict("08", "q3", fit=_fit(True, True)).passed


def test_evaluating_in_eval_mode_without_no_grad_still_passes_and_dropout_fails():
    def in_eval(model, X, y):
        model.eval()
        return (model(X).argmax(dim=1) == y).float().mean().item()

    def in_train(model, X, y):
        return (model(X).argmax(dim=1) == y).float().mean().item()
    assert verdict("08", "q4", evaluate=in_eval).passed
    assert verdict("08", "q4", evaluate=in_train).status == "failed"


def test_a_linear_model_cannot_learn_xor_and_a_huge_one_is_refused():
    v = verdict("08", "q5", make_model=lambda: torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Linear(16, 2)))
    assert v.status == "failed" and "要达到 90%" in v.reason
    v = verdict("08", "q5", make_model=lambda: torch.nn.Sequential(torch.nn.Linear(2, 500), torch.nn.ReLU(),
                                                                   torch.nn.Linear(500, 2)))
    assert v.status == "failed" and "参数太多" in v.reason
    v = verdict("08", "q5", make_model=lambda: torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(),
                                                                   torch.nn.Linear(16, 2)))
    assert v.passed


def test_checkpoints_must_load_with_weights_only_and_keep_the_optimizer():
    def save_model_object(model, optimizer, epoch, path):
        torch.save({"model": model, "epoch": epoch}, path)

    def load_model_object(model, optimizer, path):
        c = torch.load(path, weights_only=False)
        model.load_state_dict(c["model"].state_dict())
        return c["epoch"]
    v = verdict("08", "q6", save_checkpoint=save_model_object, load_checkpoint=load_model_object)
    assert v.status == "failed" and "weights_only=True" in v.reason

    def save_without_optimizer(model, optimizer, epoch, path):
        torch.save({"model": model.state_dict(), "epoch": epoch}, path)

    def load_without_optimizer(model, optimizer, path):
        c = torch.load(path)
        model.load_state_dict(c["model"])
        return c["epoch"]
    v = verdict("08", "q6", save_checkpoint=save_without_optimizer, load_checkpoint=load_without_optimizer)
    assert v.status == "failed" and "优化器的状态" in v.reason


# ------------------------------------------------------------------------------------------ chapter 10

@pytest.mark.parametrize("name", ch10.SNIPPETS)
def test_the_copy_counts_the_tests_expect_are_the_simulators(name):
    _, fn, expected = ch10.SNIPPETS[name]
    with torch.cuda.simulate() as sim:
        sim.stats.reset()
        fn(torch)
        assert (sim.stats.host_to_device, sim.stats.device_to_host) == expected


PREDICTION_CODE = {
    "a": lambda x: torch.ones(1000, device="cuda"),
    "b": lambda x: torch.ones(1000).cuda(),
    "c": lambda x: torch.tensor([1.0, 2.0, 3.0], device="cuda"),
    "d": lambda x: torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1)).to("cuda"),
    "e": lambda x: x.sum().item(),
    "f": lambda x: x.tolist(),
    "g": lambda x: bool(x.sum() > 0),
    "h": lambda x: x.to("cuda"),
}


def test_the_predicted_copy_counts_are_the_simulators():
    assert set(PREDICTION_CODE) == set(ch10.Q2.items)
    for key, code in PREDICTION_CODE.items():
        with torch.cuda.simulate() as sim:
            x = torch.ones(4, device="cuda")
            sim.stats.reset()
            code(x)
            assert [sim.stats.host_to_device, sim.stats.device_to_host] == ch10.Q2.items[key][1], key


def test_counting_without_reset_or_leaving_the_simulation_on_fails():
    def no_reset(fn):
        with torch.cuda.simulate() as sim:
            fn()
            return {"host_to_device": sim.stats.host_to_device, "device_to_host": sim.stats.device_to_host}
    v = verdict("10", "q1", count_copies=no_reset)
    assert v.status == "failed" and "拷贝次数不对" in v.reason

    def left_on(fn):
        sim = torch.cuda.simulate()
        sim.stats.reset()
        fn()
        return {"host_to_device": sim.stats.host_to_device, "device_to_host": sim.stats.device_to_host}
    from course_lib import devices
    state = devices.cuda_backend_state()
    try:
        v = verdict("10", "q1", count_copies=left_on)
    finally:
        devices.restore_cuda_backend(state)        # the learner's function left the simulation on
    assert v.status == "failed" and "开关状态" in v.reason


def test_the_loss_history_question_counts_copies_and_checks_the_value():
    def one_copy_wrong_value(model, X, Y, steps, lr):
        return 0.0 * torch.zeros((), device=X.device).item()
    v = verdict("10", "q3", mean_loss=one_copy_wrong_value)
    assert v.status == "failed" and "平均损失不对" in v.reason

    def stacked(model, X, Y, steps, lr):
        optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        losses = []
        for _ in range(steps):
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(model(X), Y)
            loss.backward()
            optimizer.step()
            losses.append(loss.detach())
        return torch.stack(losses).mean().item()
    assert verdict("10", "q3", mean_loss=stacked).passed


def _plain_mean(models, sizes=None):
    for params in zip(*(m.parameters() for m in models)):
        mean = sum(p.grad for p in params) / len(params)
        for p in params:
            p.grad = mean.clone()


def test_a_plain_mean_is_right_for_equal_shards_and_wrong_for_uneven_ones():
    assert verdict("10", "q4", all_reduce_mean=_plain_mean).passed
    v = verdict("10", "q5", weighted_all_reduce=_plain_mean)
    assert v.status == "failed" and "与整批数据的梯度不同" in v.reason


def test_summing_instead_of_averaging_fails():
    def summed(models):
        for params in zip(*(m.parameters() for m in models)):
            total = sum(p.grad for p in params)
            for p in params:
                p.grad = total.clone()
    assert verdict("10", "q4", all_reduce_mean=summed).status == "failed"


def test_chapter_10_questions_leave_no_simulation_behind():
    before = torch.cuda.is_simulated()
    for name in ("q1", "q3"):
        run_check("10", name, {"count_copies": lambda fn: None, "mean_loss": lambda *a: None})
    assert torch.cuda.is_simulated() == before
    assert os.path.isdir(tempfile.gettempdir())
