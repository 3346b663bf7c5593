// Package cancelrelease holds the cancel-and-release drill on the embedded
// server: a goal cancelled while its Step runs on a slow phone gives the
// phone back only after that Step has stopped, and the goal queued behind
// it starts only then (docs/design.md §5). It is its own package because
// it runs an embedded server and two goals.
package cancelrelease
