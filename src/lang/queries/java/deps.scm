; File-level dependencies for the impact graph: imports and the file's own package.
(import_declaration) @dep.java @dep
(package_declaration (_) @dep.package) @dep
