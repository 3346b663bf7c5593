// Package blocked holds the blocked-holder drill (docs/design.md §5): a
// goal holds the phone, paused, when its worker is replaced by one whose
// GoalWorkflow fails that goal's workflow task (a deploy that added a
// command without a version guard). The phone's lease must take the phone
// from it within limits.blocked_holder_after (plus a check interval) and
// give it to the goal queued behind it, which ends done; once a worker with
// the right code is back, the blocked goal is resumed, asks for the phone
// again, and ends done, and none of its actions reaches the phone between
// the revoke and its new grant. The fast variant runs in the default
// `go test ./...` with a 5 s bound; the full one (`-tags drills`) also
// requires the phone to change hands within the bound.
package blocked
