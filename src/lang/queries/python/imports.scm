; Python imports. Capture conventions: see src/lang/extract.ts.
; `import a.b, c` is one import per module; `from m import x as y` is one import with names.

(import_statement name: (dotted_name) @import.source @import)
(import_statement name: (aliased_import name: (dotted_name) @import.source alias: (identifier) @import.alias) @import)

(import_from_statement module_name: (_) @import.source) @import
(import_from_statement module_name: (_) @import.source name: (dotted_name) @import.name) @import
(import_from_statement module_name: (_) @import.source name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.source (wildcard_import) @import.wildcard) @import
