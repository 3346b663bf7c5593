// Package sealed keeps the text the executor types into a password field
// or onto a secure screen (docs/design.md#secrets-typed-by-the-executor)
// between the Step that decided it and the Step that types it. The
// workflow carries only the handle the text is sealed under and its
// number of characters; the text itself lives in a file under the
// worker's data_dir, encrypted (AES-256-GCM) with a key of that worker's
// host that never leaves it. A handle another host sealed cannot be
// opened here: the caller reports it, and never types something else.
package sealed
