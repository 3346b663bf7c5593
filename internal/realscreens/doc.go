// Package realscreens holds uiautomator dumps that real phones, tablets,
// car head units and emulators printed, each committed to a public
// repository by people outside phoneflow, with what a person reads on it
// (testdata/<name>.json: the file's source, vendor, language and
// readings). Its test runs the product's own checks on every file: each
// reading must come out as the person reads it, and every check kind runs
// on every file without a panic and with evidence for what it held
// (docs/design.md#verification-and-honest-status). The package has no
// code of its own: the corpus is a test fixture.
package realscreens
