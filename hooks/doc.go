// Package hooks lets code and web services watch a goal as it runs and veto
// a device action before it reaches the phone (docs/design.md §10).
//
// A worker is built with a Set (app.Deps.Hooks, and the hooks.* keys of the
// configuration for a webhook). The Set is called from activities only,
// never from workflow code: goal and todo boundaries from a local activity,
// plans from the planner activities, steps and actions from the Step
// activity. Every Event carries an ID that stays the same when the activity
// that fires it is retried, so a receiver that sees an ID twice drops the
// second copy.
package hooks
