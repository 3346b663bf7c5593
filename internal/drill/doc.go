// Package drill holds phoneflow's fault drills: tests that run goals on the
// embedded Temporal server, the offline model server and simulated phones
// behind a real adb server, inject a fault, and assert on outcomes — every
// goal completes, and each phone shows each effect exactly once.
//
// The drills in this package are:
//
//   - phone disconnect: a phone refuses connections mid-todo; the goal must
//     say it waits for the device, complete once it is back, and ask the
//     user past a configured deadline;
//   - bad input: empty goal, unknown device, wrong-typed and oversized
//     signal and update payloads, a config file with a wrong type, while a
//     goal runs undisturbed.
//
// The crash loop (the worker killed at seeded points) is in package kill,
// the phone whose screen changes while the product acts on it in package
// livephone.
//
// The drills of what a goal depends on going away (the model server down
// or answering faults, the embedded server restarted) are in package
// outage; the lost phone host, steering bursts, the blocked goal, the
// cancelled goal's release and the deploy from the previous release each
// have their own package below this one. The fault campaign, package
// campaign, runs goals of every kind on several phones while faults of
// every kind above flow, drawn by a seed, and prints one table:
//
//	go test ./internal/drill/campaign   # bounded: 20 faults
//	go test -tags campaign -timeout 0 -v ./internal/drill/campaign -campaign.seed 7 -campaign.faults 300 -campaign.phones 3
//
// Every drill package is its own
// test binary: `go test ./...` runs them in parallel, each within go
// test's per-package time limit. The tests of this package are in package
// drill_test and share the helpers of package drilltest.
//
// Fast variants (3 goals, short faults) run in the default test run:
//
//	go test ./internal/drill
//
// Full variants (10 goals, a 30 s disconnect) run behind a build tag:
//
//	go test -tags drills -timeout 60m ./internal/drill
//
// The drills' phones wear the default look (the default configuration's
// sim.skin); drill.Options.Skin, or PHONEFLOW_DRILL_SKIN for every drill,
// puts them on another. The server restart and the phone disconnect run
// on every other look in the default test run too
// (TestServerRestartOnEachLook, TestPhoneDisconnectOnEachLook), the model
// outage with -tags drills (TestModelOutageOnEachLook):
//
//	PHONEFLOW_DRILL_SKIN=miui go test -tags drills -timeout 60m ./internal/drill/...
//
// The replay corpus of workflows/testdata is recorded here too, behind its
// own build tag (see workflows/testdata/README.md):
//
//	go test -tags record -run TestRecordHistories ./internal/drill -record.dir ../../workflows/testdata/v2
//
// The drills need the adb binary (Debian/Ubuntu: apt-get install adb); without
// it they skip, unless PHONEFLOW_REQUIRE_ADB=1 makes them fail.
//
// The drills share plain helpers, usable outside tests too: Stack (the
// environment, with StopServer/RestartServer and an in-process worker),
// BuildWorker and Process (the worker as a child process that can be
// killed), History, GoalWorkflowIDs and CountFailures (what a history shows
// of failed attempts and rejected model answers) and SendTaps (duplicate
// Send taps in a phone's input log).
package drill
