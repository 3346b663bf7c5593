// Package blob is phoneflow's content-addressed store for large artifacts
// (screenshots, UI tree dumps) that must never travel through workflow
// history. Activities Put the bytes and pass only the returned reference
// ("sha256:<hex>") to workflows; later activities Get the bytes back by
// reference. The FS implementation keeps one file per blob under sharded
// directories and writes atomically, so several workers on one host can
// share a directory safely.
package blob
