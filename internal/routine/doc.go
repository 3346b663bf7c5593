// Package routine keeps learned routines: the action traces of todos that
// ended verified done, keyed by task (the todo text with its parameters
// abstracted, the app in front at the start, the phone model and its
// resolution), with the screen fingerprint expected before each action.
// A todo with a matching routine replays it step by step without the
// executor model while each screen matches the recorded one, and falls back
// to the model at the first difference (docs/design.md §8).
//
// The package is pure except for Store, a directory of JSON files written
// through a renamed temporary file.
package routine
