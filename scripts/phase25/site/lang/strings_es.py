"""The site's own strings in Spanish, in the vocabulary of glossary_es.toml (see strings.py)."""

from .atlas_strings_es import STRINGS as ATLAS
from .chrome_strings_es import STRINGS as CHROME
from .drift_strings_es import STRINGS as DRIFT

DECIMAL = ","  # how a decimal number is written: 1,2

STRINGS: dict[str, str] = {
    "not_found_title": "Página no encontrada",
    "not_found_text": "No hay ninguna página en esta dirección. Puede que se haya movido al reorganizar el sitio, o "
    "que el enlace que seguiste tenga una errata.",
    "not_found_home": "Empieza por la página de orientación",
    "not_found_report": "Cada fragmento y su salida: el informe de ejecución",
    "not_found_search": "O busca en el sitio con el cuadro de búsqueda de la parte superior de la página.",
    "search_label": "Buscar en el sitio",
    "version_title": "Versión",
    "nav_drift": "Deriva: torch {a} → {b}",
    "drift_page": "# Informe de deriva: torch {a} → {b}\n\nQué cambia en las salidas de CPU del sitio al pasar de "
    "torch {a} a {b}: cada fragmento de CPU se ejecutó con torch {b} en una carpeta de registros aparte y se "
    "comparó, salida a salida, con los registros guardados, hechos con {a}. Cada cambio se clasifica con la regla "
    "que se indica bajo el resumen. Las páginas siguen mostrando las salidas de {a} hasta que cambie la versión "
    "fijada; esta página se revisa, y su texto se escribe, en la pull request que trae la actualización.\n\n"
    "::: drift-report {name}\n",
    "lab_readme": "# {title}\n\nEsta carpeta funciona por sí sola, fuera del repositorio del sitio: el cuaderno, "
    "los archivos de Python que importa su código y los pesos entrenados del ejemplo conductor.\n\n{commands}\n\n"
    "Las salidas guardadas en el cuaderno las imprimió la máquina que genera el sitio, con torch {torch}; otro "
    "torch u otra CPU pueden imprimir otros valores donde el cuaderno lo indica.\n",
    "code": "Código",
    "theme_permalink": "Enlace permanente",
    "theme_copy": "Copiar al portapapeles",
    "theme_copied": "Copiado al portapapeles",
    "theme_search_prompt": "Escribe para empezar a buscar",
    "ran_on": "Ejecutado en",
    "captured_on": "Capturado en",
    "generated_on": "Generado en",
    "for_emulated": "para un dispositivo emulado, {device}; nunca ejecutado",
    "device_cpu": "CPU",
    "device_cuda": "CUDA",
    "device_sm90-codegen": "H200 emulada (código nunca ejecutado)",
    "commit": "commit",
    "thread": "hilo",
    "kernels_for": "kernels {isa}",
    "cpu_has": "la CPU tiene {isa}",
    "no_avx512": ", sin AVX-512",
    "threads": "hilos",
    "published": "Esta salida se publica con {files}:",
    "file": "archivo",
    "files": "archivos",
    "stdout": "stdout",
    "stderr": "stderr",
    "no_output": "El fragmento no imprimió nada.",
    "reproduce": "Reprodúcelo: descomprime {kit} ({size} KB) y ejecuta `python reproduce.py {id}`, o descarga "
    "{source}.",
    "atlas_earlier": "El atlas de esta versión lo registró una versión anterior del fragmento del atlas. Más tarde "
    "se vio que sus recorridos, sus categorías y su columna de Inductor se deducían con reglas erróneas, así que "
    "esta página archivada enumera solo lo que esa versión leyó tal cual del catálogo: las {overloads} sobrecargas "
    "que registraba torch {torch}, cada una con las claves que tienen un kernel propio. El atlas de la última "
    "versión muestra todas las columnas, cada una calculada por torch u observada en una llamada.",
    "atlas_summary": "El registro de ejecución enumera {overloads} sobrecargas de operadores en {namespaces} "
    "espacios de nombres ({aten} de ellas de aten), registradas en torch {torch} después de "
    "cada uno de estos pasos: {stages}. {cpu} tienen un kernel propio bajo CPU, {meta} bajo Meta.",
    "atlas_since": "Desde torch {torch}, la versión que fijaba antes el sitio: {added} sobrecargas añadidas, "
    "{removed} eliminadas ({names}), {changed} registran otros kernels, otro esquema u otras etiquetas; cada una "
    "dice qué en su entrada. Los kernels bajo claves CUDA no se comparan con un build solo para CPU "
    "(+cpu), que no registra ninguno.",
    "atlas_filter_changed": "cambió desde {torch}",
    "atlas_js_since": "Desde torch {torch}",
    "atlas_js_since_added": "añadida",
    "atlas_js_since_kernels_gained": "kernels nuevos en: {keys}",
    "atlas_js_since_kernels_lost": "kernels perdidos en: {keys}",
    "atlas_js_since_schema": "el esquema era: {schema}",
    "atlas_js_since_tags": "las etiquetas eran: {tags}",
    "atlas_stage": "{stage}: {n}",
    "atlas_observed": "A {observed} sobrecargas llega la primera entrada de ejemplo de la batería de pruebas de "
    "PyTorch (OpInfo), y se llamaron directamente: sus recorridos ({walks}) se observaron con kernels espía, y "
    "cada uno coincide con el que la regla del fragmento infiere de la tabla de dispatch. Los recorridos de las "
    "otras {inferred} se infieren con esa regla y no se observan ({no_kernel} de ellos se detienen en una clave "
    "sin ningún kernel registrado: una llamada ahí lanza NotImplementedError). Qué hace Inductor se vio en {seen} "
    "sobrecargas, con cuya entrada de ejemplo se ejecutó la descomposición de Inductor; las otras {read} dicen lo "
    "que contienen las tablas de Inductor, el esquema o la tabla de dispatch, y que no se vio.",
    "atlas_cuda_missing": "Columna CUDA: aún no capturada en una GPU; se rellena cuando se ejecute la captura en "
    "la GPU (la máquina con GPU tiene su propio torch, que se indicará entonces).",
    "atlas_cuda": "Columna CUDA: del registro de ejecución de CUDA, torch {torch} en la máquina con GPU.",
    "atlas_search": "Busca un operador (parte de su nombre o una etiqueta):",
    "atlas_composite": "Tipo de composición:",
    "atlas_any": "cualquiera",
    "atlas_filter_cpu": "kernel de CPU propio",
    "atlas_filter_decomposed": "Inductor lo descompone (visto, en toda llamada)",
    "atlas_filter_backward": "kernel propio en AutogradCPU",
    "atlas_filter_observed": "recorrido observado",
    "atlas_legend_composite": "Tipos de composición (la clave alias bajo la que la sobrecarga registró un kernel)",
    "atlas_legend_inductor": "Qué hace Inductor (visto donde su descomposición se ejecutó con una entrada de "
    "ejemplo; si no, leído de una tabla, y cada valor dice cuál)",
    "atlas_count": "{n} sobrecargas",
    "atlas_composite_implicit": "compuesto (implícito)",
    "atlas_composite_explicit": "compuesto (explícito)",
    "atlas_composite_explicit-non-functional": "compuesto (explícito, no funcional)",
    "atlas_composite_none": "sin kernel compuesto",
    "atlas_js_shown": "sobrecargas mostradas: {shown} de {total}",
    "atlas_js_schema": "Esquema",
    "atlas_js_writes": "se escribe in situ: {args}",
    "atlas_js_aliases": "la salida {index} es alias de {arg} (una vista suya, o el mismo tensor)",
    "atlas_js_family": "Otras sobrecargas de {base}",
    "atlas_js_sources": "Dónde se declara",
    "atlas_js_native": "native_functions.yaml, línea {line}",
    "atlas_js_derivatives": "derivatives.yaml, línea {line}",
    "atlas_js_no_derivative": "sin entrada en derivatives.yaml",
    "atlas_js_formula": "Fórmula de la derivada",
    "atlas_js_tags": "Etiquetas",
    "atlas_js_registered_by": "Lo registra",
    "atlas_js_kernels": "Kernels registrados en una clave, y el archivo que registró cada uno",
    "atlas_js_aliases_registered": "Kernels registrados bajo una clave alias",
    "atlas_js_hidden": "Registros que otro posterior oculta en la misma clave",
    "atlas_js_python": "Kernels de Python (py_impl)",
    "atlas_js_table": "Sus propias filas de la tabla de dispatch (tipo, y el registro del que vienen); las "
    "demás claves tienen el backend fallback que comparten todos los operadores",
    "atlas_js_none": "ninguno",
    "atlas_js_composite": "Tipo de composición",
    "atlas_js_decomposition": "Descomposiciones",
    "atlas_js_decomp_torch._decomp": "torch._decomp tiene una",
    "atlas_js_decomp_core_aten_decompositions": "en core_aten_decompositions() (para llegar a core ATen)",
    "atlas_js_decomp_inductor": "en la tabla de Inductor",
    "atlas_js_core": "etiqueta core: en el conjunto de operadores core de ATen",
    "atlas_js_inductor": "Qué hace Inductor",
    "atlas_js_how_observed": "visto: la descomposición de Inductor se ejecutó con la entrada de ejemplo",
    "atlas_js_how_table": "leído de una tabla (de Inductor, la de dispatch, el esquema), no visto en una llamada",
    "atlas_js_degenerate": "la entrada de ejemplo tiene una dimensión de tamaño 0 o 1: con otras formas la "
    "descomposición puede no aplicarse",
    "atlas_js_fallback_set": "también está en el conjunto de fallbacks de Inductor: algunas llamadas pasan al "
    "kernel de ATen",
    "atlas_js_grad_fn": "grad_fn de una llamada directa (entradas de coma flotante con requires_grad)",
    "atlas_js_no_grad_fn": "ninguno: la llamada no graba ningún nodo",
    "atlas_js_call_failed": "la llamada falló con entradas con requires_grad ({error})",
    "atlas_js_sample": "Llamada con los argumentos que le pasó la entrada de ejemplo «{sample}» de OpInfo",
    "atlas_js_decomposes_to": "Operadores que produce la descomposición de torch._decomp (trazada con esa entrada)",
    "atlas_js_not_sampled": "no se llamó: ninguna entrada de ejemplo de OpInfo llega a esta sobrecarga",
    "atlas_js_walks": "Qué claves ejecutan su kernel, de la más alta a la más baja (la teoría 01 recorre linear "
    "de la misma forma)",
    "atlas_js_walked_observed": "observado con un kernel espía en cada clave, con los argumentos de la "
    "entrada de ejemplo",
    "atlas_js_walked_inferred": "inferido de la tabla de dispatch con la regla del fragmento (no observado), para "
    "una llamada con un tensor float (sin entrada de ejemplo)",
    "atlas_js_no_kernel": "después {key}, donde no hay ningún kernel registrado: esa llamada lanza NotImplementedError",
    "atlas_js_walk_call": "una llamada",
    "atlas_js_walk_autocast": "bajo torch.autocast",
    "atlas_js_walk_inference_mode": "en inference_mode",
    "atlas_js_walk_meta": "con tensores meta",
    "atlas_js_link": "Enlace a este operador",
    "atlas_js_failed": "No se pudieron cargar los datos de este operador.",
    "rank": "rank {rank}",
    "rank_no_output": "Este rank no imprimió nada.",
    "collectives": (
        "Llamadas que hizo este rank a las funciones colectivas y punto a punto de `torch.distributed`: {calls}."
    ),
    "no_collectives": "Este rank no llamó a ninguna función colectiva ni punto a punto de `torch.distributed`.",
    "long": "Salida: {lines} líneas (haz clic para abrirla)",
    "gap": "… {lines} líneas …",
    "whole_output": "La salida entera: {lines} líneas",
    "open_full_size": "Abrir la imagen a tamaño completo: {name}",
    "omitted": "Aquí se omiten {lines} líneas: el ejecutor conserva los primeros y los últimos 32 KiB de cada flujo.",
    "volatile": "Las líneas marcadas dependen de la máquina por naturaleza; aquí son las que imprimió una "
    "máquina {machine}. La "
    "batería de pruebas compara byte a byte todas las demás líneas en cada ejecución, y estas no.",
    "artifact": "Archivo escrito por el fragmento: {name} (líneas: {lines})",
    "figure": "Imagen dibujada por el fragmento a partir de lo que midió: {name}",
    "diagram_title": "Diagrama dibujado por el fragmento a partir de lo que observó ({name})",
    "diagram_math kernel": "kernel matemático",
    "diagram_autograd kernel": "kernel de autograd",
    "diagram_kernel": "kernel",
    "diagram_fallthrough": "fallthrough (paso directo)",
    "diagram_default backend kernel": "kernel de backend por defecto",
    "diagram_calls": "llama a",
    "open_file": "abrir {name}",
    "artifacts_many": "El fragmento escribió {files}:",
    "shown_lines": "líneas {ranges} de {total}; el resto prepara e imprime",
    "shown_and": " y ",
    "whole_file": "El archivo entero: {total} líneas, con su cabecera (líneas 1–{last}: dispositivos, dependencias, "
    "entorno), la preparación y la impresión",
    "header_lines": "líneas 1–{last}: su cabecera (dispositivos, dependencias, entorno)",
    "lab_download_title": "Ejecuta este laboratorio en tu máquina",
    "lab_download": "Descarga {file} ({size} KB): el cuaderno, los archivos de Python que importa su código y los "
    "pesos del ejemplo conductor. Funciona fuera del repositorio de este sitio, con Python, torch y Jupyter.",
    "lab_notebook": "O solo el cuaderno, {file} ({size} KB), para leerlo en Jupyter: su código importa los "
    "archivos del zip.",
    "lab_source": "Su {source} en el repositorio del sitio, o ábrelo en {colab}: sube a su lado los archivos del "
    "zip antes de ejecutarlo.",
    "lab_source_label": "código fuente",
    "expected_error": "Lanza {type}, tal como se espera en este ejemplo.",
    "pending_label": "{device} · aún no capturado",
    "pending_tab": "Este fragmento aún no se ha ejecutado en una GPU, y el sitio solo muestra salidas registradas de "
    "ejecuciones reales: cuando se ejecute en una, esta pestaña mostrará lo que imprima allí.",
    "code_waiting": "Mostrar el código: necesita una GPU con CUDA, así que aún no tiene salida debajo",
    "output_region": "Salida de {id} ({device})",
    "report_region": "Cada ejecución y el estado de su registro",
    "stale_title": "Salida obsoleta",
    "stale": "Esta salida está obsoleta: {reason}. Solo se muestra en una "
    "vista previa local; al generar el sitio en modo estricto se rechaza.",
    "stale_source": "el fragmento, o un archivo del que declara depender, cambió después de registrarse",
    "stale_environment": "cambió el entorno del fragmento o las versiones que fija el ejecutor",
    "stale_torch": "se registró con torch {recorded}; esta máquina tiene torch {torch}",
    "failed_title": "Esta ejecución falló",
    "missing_title": "No hay ninguna salida registrada",
    "missing": "No hay registro de ejecución de {device} para este fragmento. Ejecuta `make records`.",
    "corrupt_title": "Registro de ejecución ilegible",
    "outdated_title": "Traducción desactualizada",
    "outdated": "La página en inglés ha cambiado desde que se tradujo esta. Puede que falte algo aquí: "
    "consulta la [versión en inglés]({english_url}).",
    "report_snippet": "Fragmento",
    "report_device": "Dispositivo",
    "report_status": "Estado",
    "report_wall": "Tiempo",
    "report_torch": "torch",
    "report_where": "Dónde",
    "report_date": "Fecha",
    "report_warnings": "Avisos",
    "report_warnings_title": "Avisos que emitieron las ejecuciones ({n})",
    "report_category": "Categoría",
    "report_module": "Emitido por",
    "report_message": "Mensaje",
    "status_current": "al día",
    "status_failed": "fallido",
    "status_timeout": "tiempo agotado",
    "status_stale": "obsoleto",
    "status_missing": "aún no capturado",
    "status_no_record": "sin registro",
    "status_corrupt": "ilegible",
    "report_summary": "{total} ejecuciones de {snippets} fragmentos: {ok} al día, {missing} aún no capturadas en "
    "una GPU, {bad} con algún problema.",
    "drift_summary": "{total} fragmentos de CPU comparados, torch {a} ({a_date}) frente a torch {b} ({b_date}): "
    "{changed} con cambios, {unchanged} sin cambios, {other} solo en un lado.",
    "drift_classes": "De los cambios: {real} en lo que muestra el fragmento, {build} por el build de torch "
    "(kernels de CUDA registrados, un aviso por la falta de CUDA), {volatile} solo en líneas que el fragmento "
    "declara dependientes de la máquina, {lines} solo en números de línea dentro de los propios archivos de torch.",
    "drift_unchanged": "sin cambios",
    "drift_changed": "con cambios",
    "drift_only-a": "solo antes",
    "drift_only-b": "solo después",
    "drift_missing": "en ninguno de los dos",
    "drift_kind": "Tipo de cambio",
    "drift_kind_real": "lo que muestra el fragmento",
    "drift_kind_build": "build de torch",
    "drift_kind_line-numbers": "solo números de línea",
    "drift_kind_volatile": "solo líneas que dependen de la máquina",
    "drift_kind_none": "—",
    "cpu_family_model": "familia {family}, modelo {model}",
    "changed_in": "cambió en {version}",
    "drift_edited": "fragmento editado después de esta comparación",
    "drift_diff": "Diff de la salida registrada",
    "drift_warnings_title": "Avisos de {snippet} que cambia la actualización:",
    "drift_warning_new": "nuevo:",
    "drift_warning_gone": "desaparece:",
    "atlas_drift_title": "Qué cambia la actualización en el atlas del dispatcher ({snippet}):",
    "atlas_drift_added": "Sobrecargas de operadores añadidas ({n}):",
    "atlas_drift_removed": "Sobrecargas de operadores retiradas ({n}):",
    "atlas_drift_kernels_gained": "Sobrecargas que ganaron un kernel bajo alguna clave ({n}):",
    "atlas_drift_kernels_lost": "Sobrecargas que perdieron un kernel bajo alguna clave ({n}):",
    "atlas_drift_composite": "Sobrecargas que cambiaron de tipo de composición ({n}):",
    "atlas_drift_decomposition": "Sobrecargas que ganaron o perdieron una descomposición en Python ({n}):",
    "atlas_drift_inductor": "Sobrecargas que reciben otro trato de Inductor ({n}):",
    "atlas_drift_grad_fn": "Sobrecargas que graban otro grad_fn ({n}):",
    "atlas_drift_none": "ningún operador cambió en lo que muestra el atlas.",
}
STRINGS.update(DRIFT)  # the drift page's own strings
STRINGS.update(CHROME)  # the words about a record's own words
STRINGS.update(ATLAS)  # the atlas's labels
