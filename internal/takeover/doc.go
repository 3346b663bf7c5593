// Package takeover keeps the text a person types on a goal's phone from the
// step viewer (docs/design.md §7, taking over from the browser) between the
// viewer that received it and the activity that types it. The text may be a
// password, so it never travels in a workflow update: the viewer seals it
// here under a random handle, the update carries the handle and the number
// of characters only, and the activity takes it out, which deletes it.
// Entries live in files under the worker's data_dir, encrypted with the
// host's key as internal/sealed keeps the executor's secrets, readable by
// their owner only, and expire unread after a few minutes.
package takeover
