/**
 * The compiler options for a TypeScript or JavaScript file that no tsconfig.json / jsconfig.json
 * claims, as both the validation checker and splice's rename engine use them: each passes the
 * typescript package it runs (the project's own when it has one).
 */
import type TS from "typescript";

export function defaultCompilerOptions(ts: typeof TS): TS.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    // Bundler resolution arrived in TypeScript 5.0; a project's older compiler gets Node's.
    moduleResolution: ts.ModuleResolutionKind.Bundler ?? ts.ModuleResolutionKind.NodeJs,
    strict: true,
    allowJs: true,
    checkJs: false,
    skipLibCheck: true,
    noEmit: true,
    esModuleInterop: true,
    jsx: ts.JsxEmit.ReactJSX,
  };
}
