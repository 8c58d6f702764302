"""The table of every torch and Triton internal the emulation touches: (kind, name, where..., why).

- ``("attribute", name, module, path, why)``: ``path`` followed from the imported ``module`` ("" is the module);
- ``("member", name, made_by, path, why)``: ``path`` of what the entry ``made_by`` makes (instances, or results);
- ``("marker", name, source, pattern, flags, why)``: a regular expression read from text torch or Triton wrote.

A patch's entry is named as the record's ``emulation_patches`` names it. Add a row here before the code uses a
new internal; the tests remove each row in turn and expect ``Outdated`` with its name.
"""

from __future__ import annotations

_INTERFACE = "torch._dynamo.device_interface"
_ASKS = "Inductor asks the device through Dynamo's CudaInterface: answered for the H200"
_CUDA = "torch.cuda's own question (asked outside the device interface): answered for the H200"
_AUTOTUNER = "torch._inductor.runtime.triton_heuristics"
_OUTPUT = "output code"

ENTRIES: tuple[tuple[str, ...], ...] = (
    # The patches, in the order the session applies them.
    ("attribute", "CudaInterface.get_device_properties", _INTERFACE, "CudaInterface.get_device_properties", _ASKS),
    ("attribute", "CudaInterface.get_compute_capability", _INTERFACE, "CudaInterface.get_compute_capability", _ASKS),
    ("attribute", "CudaInterface.current_device", _INTERFACE, "CudaInterface.current_device", _ASKS),
    ("attribute", "CudaInterface.device_count", _INTERFACE, "CudaInterface.device_count", _ASKS),
    ("attribute", "CudaInterface.is_available", _INTERFACE, "CudaInterface.is_available", _ASKS),
    ("attribute", "torch.cuda.get_device_properties", "torch.cuda", "get_device_properties", _CUDA),
    ("attribute", "torch.cuda.get_device_capability", "torch.cuda", "get_device_capability", _CUDA),
    ("attribute", "torch.cuda.current_device", "torch.cuda", "current_device", _CUDA),
    ("attribute", "torch.cuda.device_count", "torch.cuda", "device_count", _CUDA),
    (
        "attribute",
        "GraphLowering.save_output_code",
        "torch._inductor.graph",
        "GraphLowering.save_output_code",
        "Inductor hands the output code it wrote to this hook: the emulation captures it there",
    ),
    (
        "attribute",
        "PyCodeCache.load_by_key_path",
        "torch._inductor.codecache",
        "PyCodeCache.load_by_key_path",
        "Inductor loads the module it wrote through it: refused, which ends the compile after the code is written",
    ),
    (
        "attribute",
        "benchmarker.benchmark_gpu",
        "torch._inductor.runtime.benchmarking",
        "benchmarker.benchmark_gpu",
        "how Inductor times a kernel on the GPU: refused",
    ),
    (
        "attribute",
        "triton.runtime.driver.active",
        "triton.runtime.driver",
        "driver.set_active",
        "Triton asks its active driver for the target and for every launch: the emulated driver answers or refuses",
    ),
    (
        "attribute",
        "triton.runtime.driver._active",
        "triton.runtime.driver",
        "driver._active",
        "the driver active before the session, put back as it was (reset_active would create a real one)",
    ),
    # What the session uses besides its patches.
    ("attribute", "GPUTarget", "triton.backends.compiler", "GPUTarget", "the target the emulated driver names"),
    (
        "attribute",
        "FakeTensorMode",
        "torch._subclasses.fake_tensor",
        "FakeTensorMode",
        "tensors on cuda:0 with a shape and no memory",
    ),
    ("attribute", "torch._dynamo.reset", "torch._dynamo", "reset", "each compile starts from an empty Dynamo cache"),
    (
        "attribute",
        "inductor_config.max_autotune",
        "torch._inductor.config",
        "max_autotune",
        "a setting that picks by timing on the GPU: refused when on",
    ),
    (
        "attribute",
        "inductor_config.max_autotune_gemm",
        "torch._inductor.config",
        "max_autotune_gemm",
        "a setting that picks by timing on the GPU: refused when on",
    ),
    (
        "attribute",
        "inductor_config.max_autotune_pointwise",
        "torch._inductor.config",
        "max_autotune_pointwise",
        "a setting that picks by timing on the GPU: refused when on",
    ),
    (
        "attribute",
        "inductor_config.coordinate_descent_tuning",
        "torch._inductor.config",
        "coordinate_descent_tuning",
        "a setting that picks by timing on the GPU: refused when on",
    ),
    (
        "attribute",
        "inductor_config.patch",
        "torch._inductor.config",
        "patch",
        "sets Inductor's settings for the session's block and puts them back after",
    ),
    (
        "attribute",
        "inductor_config.shape_padding",
        "torch._inductor.config",
        "shape_padding",
        "switched off: pad_mm's compute-bound check needs answers the emulated device cannot give (see ASSUMED)",
    ),
    (
        "attribute",
        "cache_dir",
        "torch._inductor.runtime.cache_dir_utils",
        "cache_dir",
        "the compile cache's folder, written <inductor-cache> in the output code as in the H200 evidence",
    ),
    (
        "attribute",
        "DeviceProperties",
        "torch._inductor.runtime.hints",
        "DeviceProperties",
        "its create() caches a device's answers: forgotten when a session starts and ends",
    ),
    (
        "attribute",
        "torch.utils._triton",
        "torch.utils._triton",
        "",
        "its cached functions (has_triton...) remember device answers: forgotten when a session starts and ends",
    ),
    (
        "attribute",
        "torch._inductor.utils",
        "torch._inductor.utils",
        "",
        "its cached functions remember device answers: forgotten when a session starts and ends",
    ),
    (
        "attribute",
        "torch._inductor.runtime.hints",
        "torch._inductor.runtime.hints",
        "",
        "its cached functions remember device answers: forgotten when a session starts and ends",
    ),
    # Compiling one kernel for sm_90.
    (
        "attribute",
        "triton_helpers._skip_gpu_driver_setup",
        "torch._inductor.runtime.triton_helpers",
        "_skip_gpu_driver_setup",
        "set while a kernel's module is imported, or it would pick a real GPU driver",
    ),
    (
        "attribute",
        "CachingAutotuner",
        _AUTOTUNER,
        "CachingAutotuner",
        "what a kernel's module defines: it holds the configurations Inductor's heuristics gave the kernel",
    ),
    (
        "attribute",
        "CachingAutotuner._create_compile_meta",
        _AUTOTUNER,
        "CachingAutotuner._create_compile_meta",
        "the signature, constants and attributes Inductor compiles a configuration with",
    ),
    (
        "attribute",
        "CachingAutotuner._create_compile_options",
        _AUTOTUNER,
        "CachingAutotuner._create_compile_options",
        "the options (num_warps...) Inductor compiles a configuration with",
    ),
    ("member", "CachingAutotuner.configs", "CachingAutotuner", "configs", "the configurations its heuristics gave"),
    ("member", "CachingAutotuner.fn", "CachingAutotuner", "fn", "the @triton.jit function compiled"),
    ("member", "compile_meta.signature", "CachingAutotuner._create_compile_meta", "signature", "ASTSource's signature"),
    ("member", "compile_meta.constants", "CachingAutotuner._create_compile_meta", "constants", "ASTSource's constants"),
    (
        "member",
        "compile_meta.configs",
        "CachingAutotuner._create_compile_meta",
        "configs",
        "ASTSource's attributes (divisibility...)",
    ),
    ("attribute", "ASTSource", "triton.compiler", "ASTSource", "a kernel's source as Triton's compiler takes it"),
    ("attribute", "triton.compile", "triton", "compile", "compiles for the given target without a driver"),
    ("member", "CompiledKernel.asm.ptx", "triton.compile", "asm.ptx", "the PTX Triton made"),
    ("member", "CompiledKernel.asm.cubin", "triton.compile", "asm.cubin", "the cubin, read back with cuobjdump"),
    (
        "attribute",
        "cuobjdump",
        "triton.knobs",
        "nvidia.cuobjdump",
        "Triton's knob for the cuobjdump its wheel ships (its .path): reads the cubin's registers and SASS",
    ),
    # Text read from what torch and Triton write.
    (
        "marker",
        "output code: kernel definition",
        _OUTPUT,
        r"(\w+) = async_compile\.triton\('\w+', '''(.*?)'''",
        "DOTALL",
        "where each Triton kernel's name and source are",
    ),
    (
        "marker",
        "output code: kernel launch",
        _OUTPUT,
        r"(\w+)\.run\(",
        "",
        "each launch in call(): every kernel defined is launched, every kernel launched is defined",
    ),
    (
        "marker",
        "output code: call()",
        _OUTPUT,
        r"^    def call\(self, args\):",
        "MULTILINE",
        "where the module's call() begins",
    ),
    ("marker", "output code: Runner", _OUTPUT, r"^runner = Runner", "MULTILINE", "what follows call()"),
    (
        "marker",
        "kernel: heuristic",
        "kernel source",
        r"@triton_heuristics\.(\w+)\(",
        "",
        "how Inductor's runtime picks the launch configuration",
    ),
    ("marker", "kernel: size_hints", "kernel source", r"size_hints=(\{.*?\})", "", "the kernel's size hints"),
    (
        "marker",
        "kernel: reduction_hint",
        "kernel source",
        r"reduction_hint=([\w.]+)",
        "",
        "a reduction kernel's hint (pointwise kernels have none)",
    ),
    (
        "marker",
        "kernel: DeviceProperties",
        "kernel source",
        r"(DeviceProperties\(.*?\))",
        "",
        "the device Inductor wrote into the kernel's triton_meta: the emulation's answers",
    ),
    (
        "marker",
        "kernel: @triton.jit",
        "kernel source",
        r"^@triton\.jit$",
        "MULTILINE",
        "where the kernel's body begins",
    ),
    ("marker", "PTX: .reqntid", "PTX", r"\.reqntid (\d+)", "", "threads per program"),
    (
        "marker",
        "cuobjdump -res-usage",
        "cuobjdump -res-usage output",
        r"REG:(\d+) STACK:\d+ SHARED:(\d+)",
        "",
        "registers per thread and shared memory of the cubin",
    ),
    (
        "marker",
        "cuobjdump -sass: instruction",
        "cuobjdump -sass output",
        r"^\s*/\*[0-9a-f]{4}\*/[^\n]*",
        "MULTILINE",
        "one SASS instruction per line, after its address",
    ),
)
