// Package fleet knows the phones of a fleet as the workers publish them:
// each phone's serial, the worker that serves it, its labels (adb.labels)
// and what the worker read from it (device.Facts); which phones a goal's
// `--on` selector matches; and the fleet summary the planner is shown
// (docs/design.md#phone-fleet). It is pure: workflows use it too.
package fleet
