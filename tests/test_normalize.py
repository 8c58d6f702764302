"""The normalizer: volatile substrings replaced, each by a token that says what it was."""

from phase25.core.normalize import Context, normalize


def test_memory_addresses():
    assert normalize("<AddmmBackward0 object at 0x7f3a2c1b9e80>") == "<AddmmBackward0 object at 0x<addr>>"


def test_glog_prefix_keeps_level_and_location_only():
    line = "V1130 15:14:57.658000 576 torch/_inductor/graph.py:2552] [0/0] [__output_code] Output code:"
    assert normalize(line) == "V torch/_inductor/graph.py:2552] [0/0] [__output_code] Output code:"


def test_glog_prefix_behind_a_rank_keeps_the_rank_level_and_location_only():
    line = "[rank1]:W1201 12:10:45.487000 28168 torch/_logging/_internal.py:1345] [0/0] will be ignored"
    assert normalize(line) == "[rank1]:W torch/_logging/_internal.py:1345] [0/0] will be ignored"
    assert normalize("x [rank1]:W1201 12:10:45.487000 28168 a.py:1]") == "x [rank1]:W1201 12:10:45.487000 28168 a.py:1]"


def test_run_specific_paths():
    ctx = Context(
        run_dir="/tmp/phase25-x/001-a/work",
        cache_dir="/tmp/phase25-x/001-a/inductor-cache",
        run_root="/tmp/phase25-x/001-a",
        repo_root="/home/me/site",
        tree_root="/tmp/phase25-x/001-a/tree",
        tmp_dir="/tmp/phase25-x/001-a/tmp",
        site_packages=("/venv/lib/python3.11/site-packages",),
    )
    text = (
        "/tmp/phase25-x/001-a/inductor-cache/ab/kernel.py /tmp/phase25-x/001-a/work/out.txt "
        "/home/me/site/snippets/a.py /tmp/phase25-x/001-a/tree/snippets/p/a.py "
        "/venv/lib/python3.11/site-packages/torch/nn.py /tmp/phase25-x/001-a/tmp/tmpab12cd/store "
        "/tmp/phase25-x/001-a/triton-cache"
    )
    assert normalize(text, ctx) == (
        "<inductor-cache>/ab/kernel.py <run-dir>/out.txt snippets/a.py snippets/p/a.py "
        "<site-packages>/torch/nn.py <tmp>/store <run>/triton-cache"
    )


def test_a_snippet_path_cut_by_a_log_width_is_kept_from_snippets_on():
    line = "| +- TENSOR_MATCH ...  # ork/main/snippets/theory-03/dynamo_graph_and_guards.py:16 in head"
    assert normalize(line) == "| +- TENSOR_MATCH ...  # snippets/theory-03/dynamo_graph_and_guards.py:16 in head"


def test_the_runners_own_frames_leave_tracebacks():
    text = (
        'User code traceback:\n  File "<frozen runpy>", line 198, in _run_module_as_main\n'
        '  File "scripts/phase25/bootstrap.py", line 107, in <module>\n    sys.exit(main())\n'
        '             ^^^^^^^\n  File "snippets/p/a.py", line 3, in <module>\n    f(x)\n'
    )
    assert normalize(text) == 'User code traceback:\n  File "snippets/p/a.py", line 3, in <module>\n    f(x)\n'


def test_uuids_guard_ids_and_timings():
    text = (
        "__compiled_fn_1_0c6f2e8a_1b2c_4d5e_8f90_a1b2c3d4e5f6 ___check_obj_id(L['W'], 140234567890123) "
        "took 0.123s, 12.5 ms"
    )
    assert normalize(text) == "__compiled_fn_1_<uuid> ___check_obj_id(L['W'], <id>) took <time>, <time>"


def test_pid_only_where_named_as_a_pid():
    assert normalize("pid=4242 shape (4242,)", Context(pid=4242)) == "pid=<pid> shape (4242,)"


def test_values_that_look_numeric_survive():
    text = "y.shape: (2, 600)\ntensor([0.1234, 5.0000])\n600 x 64 = 38400"
    assert normalize(text) == text


def test_idempotent_and_strips_trailing_space():
    once = normalize("a  \r\nb 0xdeadbeefcafe \n")
    assert once == "a\nb 0x<addr>\n" and normalize(once) == once


def test_library_logs_lose_their_clocks():
    text = (
        "USDT:2026-11-30 16:09:21 14732:14732 SyncActivityProfilerHandler.cpp:52] profiler_start\n"
        "[W1130 16:09:34.454236791 Module.cpp:206] symbolizing C++ stack trace\n"
        "onednn_verbose,v1,primitive,exec,cpu,matmul,brg_matmul:avx2,undef,src:bf16,,2x64:64x600,0.0380859\n"
        "MKL_VERBOSE oneMKL 2024.0 Lnx 2.60GHz lp64 gnu_thread"
    )
    assert normalize(text) == (
        "USDT:<datetime> SyncActivityProfilerHandler.cpp:52] profiler_start\n"
        "[W Module.cpp:206] symbolizing C++ stack trace\n"
        "onednn_verbose,v1,primitive,exec,cpu,matmul,brg_matmul:avx2,undef,src:bf16,,2x64:64x600,<time>\n"
        "MKL_VERBOSE oneMKL 2024.0 Lnx <freq> lp64 gnu_thread"
    )
