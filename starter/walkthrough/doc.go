// Package walkthrough holds the newcomer walkthrough: a test that builds the
// starter, starts the demo and pastes every command and link the demo,
// `run`, `status` and `schedule` print, checking each works. It is a package
// of its own so its minutes count against their own test time limit.
package walkthrough
