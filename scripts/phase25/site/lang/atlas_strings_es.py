"""The atlas's labels in Spanish (merged into strings_es.py): each composite kind's definition, and each
value of "what Inductor does" with how it is known."""

STRINGS: dict[str, str] = {
    "atlas_define_implicit": "CompositeImplicitAutograd: un kernel escrito con otros operadores de ATen. La tabla "
    "de dispatch lo toma en cada clave de backend sin kernel propio y en las claves de autograd, así que autograd "
    "deriva los operadores a los que llama. Un kernel registrado directamente en una clave gana en esa clave. En "
    "una clave de autograd, el kernel compuesto gana también a un registro bajo Autograd, salvo que el backend "
    "tenga kernel propio (o el operador uno CompositeExplicitAutograd): entonces ocupa esa clave el registro bajo "
    "Autograd o, si no lo hay, el fallback de autograd que comparten todos los operadores.",
    "atlas_define_explicit": "CompositeExplicitAutograd: un solo kernel que sirve a todos los backends; ocupa cada "
    "clave de backend que no tiene kernel propio (el kernel propio de un backend tiene prioridad). Nunca se toma "
    "en una clave de autograd: ahí se ejecuta el registro del propio operador bajo Autograd (generado a partir de "
    "derivatives.yaml en la mayoría) o, si no lo hay, el fallback de autograd que comparten todos los operadores.",
    "atlas_define_explicit-non-functional": "CompositeExplicitAutogradNonFunctional: como el explícito, pero "
    "el kernel llama por "
    "dentro a operadores que mutan o crean alias, así que los backends que necesitan grafos "
    "funcionales (XLA, Lazy) no lo reciben; torchgen lo genera para la forma no in situ de "
    "los operadores estructurados. El kernel propio de un backend tiene prioridad: addmm "
    "ejecuta su propio kernel de CPU.",
    "atlas_define_none": "Sin registro compuesto: cada clave de backend tiene un kernel propio, o ninguno.",
    "atlas_inductor_composite": "se descompone antes de llegar a Inductor",
    "atlas_inductor_decomposed": "Inductor lo descompone (visto con su entrada de ejemplo)",
    "atlas_inductor_decomposed_some": "solo descompone algunas llamadas (con su entrada de ejemplo lo hizo)",
    "atlas_inductor_decomposition_table": "en la tabla de descomposiciones de Inductor (sin ejecutar)",
    "atlas_inductor_functionalized": "se funcionaliza antes de Inductor (escribe un argumento)",
    "atlas_inductor_lowered": "tiene un lowering propio",
    "atlas_inductor_fallback": "llama al kernel de ATen (su lowering es el manejador de fallback)",
    "atlas_inductor_implicit_fallback": "llama al kernel de ATen (no está en ninguna tabla de Inductor)",
    "atlas_inductor_lowered_declined": "la descomposición no se aplica; tiene un lowering propio",
    "atlas_inductor_fallback_declined": "la descomposición no se aplica; llama al kernel de ATen",
    "atlas_inductor_implicit_fallback_declined": "la descomposición no se aplica; llama al kernel de ATen (sin regla)",
    "atlas_inductor_functionalized_declined": "la descomposición no se aplica; se funcionaliza antes de Inductor",
    "atlas_inductor_none": "no es un operador al que Inductor pueda llamar",
    "atlas_explain_composite": "Su fila de AutogradCPU es un math kernel (CompositeImplicitAutograd, sin kernel "
    "propio de CPU): la llamada se descompone en la clave de autograd mientras AOTAutograd traza, así que Inductor "
    "recibe los operadores a los que llama. Leído de la tabla de dispatch.",
    "atlas_explain_decomposed": "La descomposición de Inductor (select_decomp_table()) se ejecutó con la entrada "
    "de ejemplo y sustituyó la llamada por otros operadores; su código no tiene ningún camino que devuelva "
    "NotImplemented, así que sustituye todas las llamadas.",
    "atlas_explain_decomposed_some": "La descomposición de Inductor se ejecutó con la entrada de ejemplo y "
    "sustituyó la llamada, pero su código devuelve NotImplemented con algunas formas, dtypes o dispositivos, y en "
    "esas llamadas el operador se queda. La entrada avisa cuando su ejemplo tiene una dimensión de tamaño 0 o 1, "
    "las formas que esas descomposiciones aceptan con más frecuencia.",
    "atlas_explain_decomposition_table": "La tabla de descomposiciones de Inductor tiene una entrada; ninguna "
    "entrada de ejemplo llega a la sobrecarga, o su descomposición no se pudo trazar con ella, así que no se vio "
    "si la entrada se aplica (algunas devuelven NotImplemented en algunas llamadas).",
    "atlas_explain_functionalized": "Su esquema escribe un argumento y tiene un kernel propio en Functionalize: la "
    "funcionalización de AOTAutograd sustituye la llamada por la forma funcional del operador (con un copy_ donde "
    "se escribe una entrada) antes de que Inductor vea el grafo, así que lo que hace Inductor es lo que dice la "
    "entrada de esa forma. Leído del esquema y de la tabla de dispatch.",
    "atlas_explain_lowered": "Un lowering (traducción a bucles) propio en la tabla de lowerings de Inductor, no el "
    "manejador de fallback: Inductor escribe código para él, como bucles, una plantilla o una llamada a un kernel "
    "de biblioteca (extern_kernels.mm, extern_kernels.convolution). Leído de la tabla; la entrada avisa cuando el "
    "operador también está en el conjunto de fallbacks de Inductor, que en algunos casos pasa la llamada al kernel "
    "de ATen.",
    "atlas_explain_fallback": "Su lowering es el manejador de fallback de Inductor (make_fallback): Inductor llama "
    "al kernel de ATen. Leído de la tabla.",
    "atlas_explain_implicit_fallback": "Ni descomposición, ni lowering, ni fallback en las tablas de Inductor, y "
    "no escribe ningún argumento: Inductor llama al kernel de ATen (fallback implícito). Leído de las tablas.",
    "atlas_explain_declined": "La descomposición de Inductor se ejecutó con la entrada de ejemplo y devolvió "
    "NotImplemented (o volvió a llamar al operador), así que el operador se queda.",
    "atlas_explain_none": "No es un operador de ATen al que Inductor pueda llamar.",
}
