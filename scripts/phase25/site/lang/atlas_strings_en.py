"""The atlas's labels in English (merged into strings_en.py): each composite kind's definition, and each
value of "what Inductor does" with how it is known."""

STRINGS: dict[str, str] = {
    "atlas_define_implicit": "CompositeImplicitAutograd: a kernel written in other ATen operators. The dispatch "
    "table takes it at each backend key that has no kernel of its own and at the autograd keys, so autograd "
    "differentiates the operators it calls. A kernel registered directly at a key wins at that key. At an autograd "
    "key the composite kernel also wins over an Autograd registration, unless the backend has a kernel of its own "
    "(or the operator a CompositeExplicitAutograd one): then the Autograd registration fills that key, or, without "
    "one, the autograd fallback every operator shares.",
    "atlas_define_explicit": "CompositeExplicitAutograd: one kernel every backend can use; it fills each backend "
    "key that has no kernel of its own (a backend's own kernel takes precedence). It is never taken at an autograd "
    "key: there the operator's own Autograd registration runs (generated from derivatives.yaml for most), or, "
    "without one, the autograd fallback every operator shares.",
    "atlas_define_explicit-non-functional": "CompositeExplicitAutogradNonFunctional: like the explicit kind, "
    "but the kernel calls "
    "mutating or aliasing operators inside, so backends that need functional graphs (XLA, "
    "Lazy) do not get it; torchgen generates it for the out-of-place form of structured "
    "operators. A backend's own kernel takes precedence: addmm runs its own CPU kernel.",
    "atlas_define_none": "No composite registration: each backend key has a kernel of its own, or none.",
    "atlas_inductor_composite": "decomposed before Inductor sees it",
    "atlas_inductor_decomposed": "decomposed by Inductor (seen on its sample)",
    "atlas_inductor_decomposed_some": "decomposes some calls only (it did on its sample)",
    "atlas_inductor_decomposition_table": "in Inductor's decomposition table (not run)",
    "atlas_inductor_functionalized": "functionalized before Inductor (writes an argument)",
    "atlas_inductor_lowered": "a lowering of its own",
    "atlas_inductor_fallback": "calls the ATen kernel (its lowering is the fallback handler)",
    "atlas_inductor_implicit_fallback": "calls the ATen kernel (in none of Inductor's tables)",
    "atlas_inductor_lowered_declined": "decomposition declined; a lowering of its own",
    "atlas_inductor_fallback_declined": "decomposition declined; calls the ATen kernel",
    "atlas_inductor_implicit_fallback_declined": "decomposition declined; calls the ATen kernel (no rule)",
    "atlas_inductor_functionalized_declined": "decomposition declined; functionalized before Inductor",
    "atlas_inductor_none": "not an operator Inductor can call",
    "atlas_explain_composite": "Its AutogradCPU row is a math kernel (CompositeImplicitAutograd, and no CPU kernel "
    "of its own): the call decomposes at the autograd key while AOTAutograd traces, so Inductor receives the "
    "operators it calls. Read from the dispatch table.",
    "atlas_explain_decomposed": "Inductor's decomposition (select_decomp_table()) was run on the sample and "
    "replaced the call by other operators; its source has no path that returns NotImplemented, so it replaces "
    "every call.",
    "atlas_explain_decomposed_some": "Inductor's decomposition was run on the sample and replaced the call, but "
    "its source returns NotImplemented for some shapes, dtypes or devices, and those calls keep the operator. An "
    "entry says when its sample has a dimension of size 0 or 1, the shapes such decompositions accept most often.",
    "atlas_explain_decomposition_table": "Inductor's decomposition table has an entry; no sample reached the "
    "overload, or its decomposition could not be traced on it, so whether the entry applies was not seen (some "
    "entries return NotImplemented on some calls).",
    "atlas_explain_functionalized": "Its schema writes an argument and it has a Functionalize kernel of its own: "
    "AOTAutograd's functionalization replaces the call by the operator's functional form (with a copy_ where an "
    "input is written) before Inductor sees the graph, so what Inductor does is that form's entry. Read from the "
    "schema and the dispatch table.",
    "atlas_explain_lowered": "A lowering of its own in Inductor's lowering table (not the fallback handler): "
    "Inductor writes code for it, as loops, a template, or a call of a library kernel (extern_kernels.mm, "
    "extern_kernels.convolution). Read from the table; an entry says when the operator is also in Inductor's "
    "fallback set, whose calls some cases hand to the ATen kernel.",
    "atlas_explain_fallback": "Its lowering is Inductor's fallback handler (make_fallback): Inductor calls the "
    "ATen kernel. Read from the table.",
    "atlas_explain_implicit_fallback": "No decomposition, lowering or fallback in Inductor's tables, and it writes "
    "no argument: Inductor calls the ATen kernel (implicit fallback). Read from the tables.",
    "atlas_explain_declined": "Inductor's decomposition was run on the sample and returned NotImplemented (or "
    "called the operator again), so the operator stays.",
    "atlas_explain_none": "Not an ATen operator Inductor can call.",
}
