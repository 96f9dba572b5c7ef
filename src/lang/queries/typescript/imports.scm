; inherits: javascript
; TypeScript imports: the JavaScript ones (inherited above) plus `import x = require()`.
; `import x = require("m")`
(import_statement
  (import_require_clause (identifier) @import.alias source: (_ (string_fragment) @import.source))) @import
