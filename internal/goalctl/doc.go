// Package goalctl is the client side of phoneflow goals: it starts
// GoalWorkflows, steers them with updates or signals, reads their `status`
// and `todos` queries, lists and cancels them, follows a running goal for
// the live progress view, and manages Temporal Schedules that start goals
// on a cron or interval.
//
// It works on any client.Client, so the starter CLI, the demo and tests (with
// go.temporal.io/sdk/mocks) share it. Errors about missing goals or
// schedules are *NotFoundError, whose message says how to list what exists;
// update validator rejections come back with the workflow's own words
// ("resume: goal is not paused").
package goalctl
