// Package scheduled drills schedules whose runs need a person on the
// embedded Temporal server: one run is left waiting for an answer and the
// test checks that later runs are buffered or that the waiting run fails by
// its deadline, as the schedule's policy says, and that no run is skipped.
// The default run is bounded (20-second schedules); the 30-minute drill of
// a schedule every minute is behind the soak build tag.
package scheduled
