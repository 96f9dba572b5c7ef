/**
 * ripgrep's file types (-t/-T), as ripgrep 13's `--type-list` defines the common ones: globs on
 * a file's name (the walk's `types`).
 */
export const FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  c: ["*.[chH]", "*.[chH].in", "*.cats"],
  cpp: ["*.[ChH]", "*.[ChH].in", "*.[ch]pp", "*.[ch]pp.in", "*.[ch]xx", "*.[ch]xx.in", "*.cc", "*.cc.in", "*.hh", "*.hh.in", "*.inl"],
  css: ["*.css", "*.scss"],
  go: ["*.go"],
  h: ["*.h", "*.hpp"],
  html: ["*.ejs", "*.htm", "*.html"],
  java: ["*.java", "*.jsp", "*.jspx", "*.properties"],
  js: ["*.js", "*.jsx", "*.vue"],
  json: ["*.json", "composer.lock"],
  markdown: ["*.markdown", "*.md", "*.mdown", "*.mkdn"],
  md: ["*.markdown", "*.md", "*.mdown", "*.mkdn"],
  py: ["*.py"],
  rust: ["*.rs"],
  sh: [
    "*.bash", "*.bashrc", "*.csh", "*.cshrc", "*.ksh", "*.kshrc", "*.sh", "*.tcsh", "*.zsh",
    ".bash_login", ".bash_logout", ".bash_profile", ".bashrc", ".cshrc", ".kshrc", ".login", ".logout", ".profile", ".tcshrc",
    ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc",
    "bash_login", "bash_logout", "bash_profile", "bashrc", "profile", "zlogin", "zlogout", "zprofile", "zshenv", "zshrc",
  ],
  toml: ["*.toml", "Cargo.lock"],
  ts: ["*.ts", "*.tsx"],
  yaml: ["*.yaml", "*.yml"],
};

/** The name globs of the -t (include) and -T (exclude) types; or the first unknown type's name. */
export function typeGlobs(include: string[], exclude: string[]): { include: string[]; exclude: string[] } | { unknown: string } {
  const inc: string[] = [];
  const exc: string[] = [];
  for (const [names, out] of [
    [include, inc],
    [exclude, exc],
  ] as const) {
    for (const t of names) {
      const globs = FILE_TYPES[t];
      if (!globs) return { unknown: t };
      out.push(...globs);
    }
  }
  return { include: inc, exclude: exc };
}
