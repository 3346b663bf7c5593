// Package promptmem is phoneflow's prompt memory: one JSON file, keyed by
// task type, holding the best system prompt found so far for that kind of
// goal with its success rate and run count (docs/design.md §2). There is no
// database and no retrieval beyond an exact task-type lookup.
//
// Every read goes to the file, and every write is a read-modify-write under
// an exclusive flock on a sibling ".lock" file followed by an atomic
// rename, so several worker processes on one host can share the file and
// see each other's updates.
package promptmem
