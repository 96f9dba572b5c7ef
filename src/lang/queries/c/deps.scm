; File-level dependencies for the impact graph: #include "x" (@dep.include) and <x> (@dep.system).
(preproc_include path: (string_literal) @dep.include) @dep
(preproc_include path: (system_lib_string) @dep.system) @dep
