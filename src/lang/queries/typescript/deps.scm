; inherits: javascript
; `import x = require("m")`
(import_statement (import_require_clause source: (string) @dep.require)) @dep
