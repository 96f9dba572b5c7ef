; File-level dependencies for the impact graph.
;   @dep.module  `import a.b` / the module of `from a.b import c` (@dep.name: each imported name)
;   @dep.dynamic the first argument of importlib.import_module(...) / __import__(...)
(import_statement name: (dotted_name) @dep.module) @dep
(import_statement name: (aliased_import name: (dotted_name) @dep.module)) @dep
(import_from_statement module_name: (_) @dep.module name: (dotted_name) @dep.name) @dep
(import_from_statement module_name: (_) @dep.module name: (aliased_import name: (dotted_name) @dep.name)) @dep
(import_from_statement module_name: (_) @dep.module (wildcard_import)) @dep
(call
  function: (attribute object: (identifier) @_importlib attribute: (identifier) @_fn)
  arguments: (argument_list . (_) @dep.dynamic)
  (#eq? @_importlib "importlib") (#eq? @_fn "import_module")) @dep
(call
  function: (identifier) @_fn
  arguments: (argument_list . (_) @dep.dynamic)
  (#match? @_fn "^(import_module|__import__)$")) @dep
(module
  (expression_statement (assignment left: (identifier) @dep.const_name right: (string) @dep.const)) @dep)
; importlib.util.spec_from_file_location(name, path) and the importlib.machinery loaders
; (SourceFileLoader, SourcelessFileLoader, ExtensionFileLoader): the path argument.
(call
  function: [(attribute attribute: (identifier) @_fn) (identifier) @_fn]
  arguments: (argument_list . (_) . (_) @dep.path)
  (#match? @_fn "^(spec_from_file_location|SourceFileLoader|SourcelessFileLoader|ExtensionFileLoader)$")) @dep
