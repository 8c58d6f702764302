"""The emulated H200 (``sm90-codegen``): code generation without a GPU, refused the moment anything would run.

Rules tried here, each from the side that would break it:
- every patch still applies to the pinned torch and triton, and one that no longer does fails with its name;
- loading the generated module, launching, timing, and a device question with no observed answer are refused;
- the session puts back everything it changed, whether its block ends, raises or is interrupted;
- an emulated record must name its emulation: a run that never switched it on fails and says why, and a record
  whose provenance lost it is refused when read, so the strict build cannot show it as real.
"""

from __future__ import annotations

import json
import re

import pytest
from phase25.core import records
from phase25.core.catalog import Catalog
from phase25.core.devices import EMULATION_FIELDS

emulated_h200 = pytest.importorskip("emulated_h200")
torch = pytest.importorskip("torch")


def _originals() -> dict[str, object]:
    from torch._dynamo.device_interface import CudaInterface
    from torch._inductor.codecache import PyCodeCache
    from torch._inductor.graph import GraphLowering
    from torch._inductor.runtime import benchmarking

    return {
        "props": torch.cuda.get_device_properties,
        "capability": torch.cuda.get_device_capability,
        "interface": CudaInterface.__dict__["get_device_properties"],
        "available": CudaInterface.__dict__["is_available"],
        "load": PyCodeCache.__dict__["load_by_key_path"],
        "save": GraphLowering.__dict__["save_output_code"],
        "bench": vars(benchmarking.benchmarker).get("benchmark_gpu"),
        "bench_class": type(benchmarking.benchmarker).__dict__["benchmark_gpu"],
    }


def test_every_patch_applies_to_the_pinned_torch_and_is_put_back():
    before = _originals()
    with emulated_h200.session():
        assert torch.cuda.get_device_properties(0).multi_processor_count == 132
        assert torch.cuda.get_device_capability(0) == (9, 0)
        names = emulated_h200.provenance()["emulation_patches"]
    # every row of the patch table applied, and Triton's driver made the emulated one
    assert len(names) == len(emulated_h200.patches.patches([])) + 1 and "triton.runtime.driver.active" in names
    assert _originals() == before, "the session left a patch behind"
    assert not torch.cuda.is_available(), "the real answer is back: this machine has no GPU"


def test_a_patch_whose_target_moved_fails_with_its_name(monkeypatch):
    from torch._inductor.codecache import PyCodeCache

    before = _originals()
    monkeypatch.delattr(PyCodeCache, "load_by_key_path")
    with pytest.raises(emulated_h200.Outdated, match=r"PyCodeCache\.load_by_key_path no longer exists"):
        with emulated_h200.session():
            pytest.fail("the session opened with a patch that could not apply")
    monkeypatch.undo()
    assert _originals() == before, "the patches applied before the missing one were put back"


def _load():
    from torch._inductor.codecache import PyCodeCache

    PyCodeCache.load_by_key_path("key", "/nonexistent.py")


def _time():
    from torch._inductor.runtime.benchmarking import benchmarker

    benchmarker.benchmark_gpu(lambda: None)


def _launch():
    from triton.runtime.driver import driver

    return driver.active.launcher_cls


def _load_binary():
    from triton.runtime.driver import driver

    return driver.active.utils.load_binary


def _unknown_property():
    return torch.cuda.get_device_properties(0).total_memory


def _autotune():
    import torch._inductor.config as inductor_config

    with inductor_config.patch(max_autotune=True):
        emulated_h200.Session("/nonexistent").compile(lambda x: x + 1, torch.ones(1))


def _real_memory():
    return torch.empty(1, device="cuda:0")  # outside the fake mode: the emulation never pretends memory exists


def _synchronize():
    torch.cuda.synchronize()


@pytest.mark.parametrize(
    ("attempt", "says"),
    [
        (_load, "loading the generated module"),
        (_time, "timing a kernel"),
        (_launch, "launcher_cls"),
        (_load_binary, "'utils'"),
        (_unknown_property, "no observed value for the device property 'total_memory'"),
        (_autotune, "max_autotune picks by timing"),
    ],
    ids=["load", "timing", "launch", "load-binary", "unknown-property", "max-autotune"],
)
def test_whatever_would_run_or_measure_is_refused(attempt, says):
    with emulated_h200.session():
        with pytest.raises(emulated_h200.Refused, match=says):
            attempt()


@pytest.mark.parametrize("attempt", [_real_memory, _synchronize], ids=["allocate", "synchronize"])
def test_the_real_cuda_runtime_is_never_faked(attempt):
    """Only questions are answered: memory and the device's work stay the real runtime's, which has no GPU here."""
    with emulated_h200.session():
        with pytest.raises((RuntimeError, AssertionError)):
            attempt()


@pytest.mark.parametrize(
    "setting", ["max_autotune", "max_autotune_gemm", "max_autotune_pointwise", "coordinate_descent_tuning"]
)
def test_every_setting_that_picks_by_timing_is_refused(setting):
    import torch._inductor.config as inductor_config

    with emulated_h200.session() as h200, inductor_config.patch({setting: True}):
        with pytest.raises(emulated_h200.Refused, match=f"{setting} picks by timing"):
            h200.compile(lambda x: x + 1, h200.place(torch.ones(1)))


def _defined_by(owner, attribute: str):
    """Where ``owner.attribute`` is defined: the owner itself, or the class it inherits it from (an instance's
    method, Inductor's benchmarker.benchmark_gpu, is its class's)."""
    if attribute in vars(owner):
        return owner
    classes = owner.__mro__ if isinstance(owner, type) else type(owner).__mro__
    return next(klass for klass in classes if attribute in vars(klass))


# Every patch by its name, read from the table: no Inductor module is imported to collect these tests.
@pytest.mark.parametrize("name", [patch.name for patch in emulated_h200.patches.patches([])])
def test_each_patch_whose_target_moved_fails_with_its_own_name_or_still_answers(monkeypatch, name):
    """What a torch upgrade does to a patch: its target gone from where it was defined. Each patch is tried, not
    only one. Gone for good, the session refuses to open and names it; still inherited (CudaInterface from
    DeviceInterface), the patch still answers where Inductor asks. That every patch is asked at all is the
    records' job: the emulated snippets print how often each question was answered, and the suite re-executes
    them."""
    owner, attribute = emulated_h200.internals.holder(name)
    before = _originals()
    monkeypatch.delattr(_defined_by(owner, attribute), attribute)
    if hasattr(owner, attribute):
        inherited = getattr(owner, attribute)
        with emulated_h200.session():
            # the patch set on the owner itself, in front of what it inherits
            assert attribute in vars(owner) and getattr(owner, attribute) != inherited, f"{name} no longer answers"
    else:
        with pytest.raises(emulated_h200.Outdated, match=re.escape(f"{name} no longer exists")):
            with emulated_h200.session():
                pytest.fail("the session opened with a patch that could not apply")
    monkeypatch.undo()
    assert _originals() == before


@pytest.mark.parametrize("ending", [RuntimeError("boom"), KeyboardInterrupt()], ids=["error", "interrupt"])
def test_the_session_is_undone_however_its_block_ends(ending):
    from triton.runtime.driver import driver

    before, active = _originals(), driver._active
    with pytest.raises(type(ending)):
        with emulated_h200.session():
            raise ending
    assert _originals() == before and driver._active is active


def test_a_run_that_never_switches_the_emulation_on_fails_and_says_why(toy):
    toy.add("page/plain", "print('no emulation here')\n", devices='["sm90-codegen"]')
    [record] = toy.run(devices=("sm90-codegen",))[0].executed
    assert record.status == "failed"
    assert "does not name the emulation" in (record.error or "") and "switch the emulation on" in record.error


def test_an_emulated_record_that_lost_its_emulation_is_refused_when_read(toy):
    toy.add("page/plain", "print('no emulation here')\n", devices='["sm90-codegen"]')
    toy.run(devices=("sm90-codegen",))
    path = records.record_path(toy.layout, "page/plain", "sm90-codegen")
    data = json.loads(path.read_text())
    data["output"].update(status="ok", exit_code=0, error=None)
    for name in EMULATION_FIELDS:  # a provenance that names every field of the emulation but one
        data["provenance"][name] = "x" if name != "emulated_device" else ""
    data.pop("digest")
    path.write_text(json.dumps({**data, "digest": records.digest(data)}))
    standing = Catalog(toy.layout).standing("page/plain", "sm90-codegen")
    assert standing.state == "corrupt" and "emulated_device" in standing.reason


EMULATED_PROVENANCE = {
    "python": "3.11.7",
    "torch": "2.15.0",
    "triton": "3.9.0",
    "device_name": "AMD EPYC",
    "emulation": "code generation for an emulated NVIDIA H200 on this CPU; nothing loaded, launched or timed",
    "emulated_device": "NVIDIA H200 (sm_90)",
    "emulated_properties": ["name=NVIDIA H200", "multi_processor_count=132", "warp_size=32"],
    "emulation_patches": ["torch.cuda.get_device_properties"],
    "emulation_refuses": ["timing"],
}


def _emulated_page(toy, provenance, lang="en"):
    from phase25.core import environment
    from phase25.core.records import Record
    from phase25.core.snippets import discover, source_sha256
    from phase25.site.kinds.assemble import render_markdown
    from phase25.site.page.context import Page
    from phase25.site.page.highlight import Highlighter

    toy.add("page/gen", "print('kernel')\n", devices='["cpu", "sm90-codegen", "cuda"]')
    snippet = discover(toy.layout)[0]
    for device in ("cpu", "sm90-codegen"):
        made = Record(
            snippet="page/gen",
            device=device,
            source_sha256=source_sha256(snippet, toy.layout),
            env_key=environment.env_key(snippet, device),
            status="ok",
            exit_code=0,
            stdout="kernel\n",
            stderr="",
            provenance=provenance if device == "sm90-codegen" else {"torch": "2.15.0", "device_name": "AMD EPYC"},
            run={"date": "2026-12-03", "wall_s": 14.5, "git_commit": "abcdef1234567", "mode": "fresh"},
        )
        records.save(toy.layout, made)
    view = Page(lang, f"docs/{lang}/page.md", Catalog(toy.layout, "2.15.0"), Highlighter())
    return render_markdown("# T\n\n::: snippet page/gen\n", view)


@pytest.mark.parametrize(
    ("lang", "label", "line"),
    [
        (
            "en",
            "H200 (emulated, never run)",
            "Generated on CPU · AMD EPYC · for an emulated NVIDIA H200 (sm_90) "
            "[multi_processor_count=132, warp_size=32], never run · torch 2.15.0 · Triton 3.9.0",
        ),
        (
            "es",
            "H200 emulada (código nunca ejecutado)",
            "Generado en CPU · AMD EPYC · para un dispositivo emulado, NVIDIA H200 (sm_90) "
            "[multi_processor_count=132, warp_size=32]; nunca ejecutado · torch 2.15.0 · Triton 3.9.0",
        ),
    ],
)
def test_the_emulated_tab_says_what_it_is_in_each_language(toy, lang, label, line):
    html, problems = _emulated_page(toy, EMULATED_PROVENANCE, lang)
    assert problems == []
    labels = re.findall(r'<label for="__snippet_1_\d">([^<]*)</label>', html)
    assert labels[:2] == ["CPU", label] and labels[2].startswith("CUDA · "), "CPU, the emulated, the real GPU's"
    assert line in html


def test_a_page_cannot_show_an_emulated_record_that_does_not_name_its_emulation(toy):
    from phase25.core.records import RecordError

    unnamed = {k: v for k, v in EMULATED_PROVENANCE.items() if k != "emulation_patches"}
    with pytest.raises(RecordError, match="does not name the emulation"):
        _emulated_page(toy, unnamed)


def test_device_answers_cached_before_or_during_a_session_do_not_cross_it():
    """A lab compiles for the CPU first (torch caches "no triton here"); the emulated cell after it must still
    see the H200, and nothing the emulation answered may be remembered once it ends."""
    from torch._inductor.runtime.hints import DeviceProperties
    from torch.utils._triton import has_triton

    assert not has_triton(), "this machine has no GPU: torch caches that answer"
    with emulated_h200.session():
        assert has_triton(), "the answer cached before the session hid the emulated H200"
        assert DeviceProperties.create(torch.device("cuda", 0)).multi_processor_count == 132
    assert not has_triton(), "the emulated answer outlived its session"
    assert DeviceProperties.create.cache_info().currsize == 0
