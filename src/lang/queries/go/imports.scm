; Go imports: one per import spec; `f "fmt"` binds the package as f, `. "fmt"` imports all its names.

(import_spec path: (_ (interpreted_string_literal_content) @import.source)) @import
(import_spec name: (package_identifier) @import.alias path: (_ (interpreted_string_literal_content) @import.source)) @import
(import_spec name: (blank_identifier) @import.alias path: (_ (interpreted_string_literal_content) @import.source)) @import
(import_spec name: (dot) @import.wildcard path: (_ (interpreted_string_literal_content) @import.source)) @import
