// Package campaign holds the fault campaign: goals of every kind run one
// after another on two or more phones that live their own lives, while
// faults drawn by a seed flow — the worker killed with SIGKILL at every
// point of an action, the model endpoint answering every class of error,
// the adb server killed, a phone's transport cut, the Temporal server
// killed with SIGKILL, a rolling restart of the worker once a run — until a
// given number were injected. Then it holds each goal's outcome against
// its phone's input log and state and prints one table
// (docs/development.md#fault-campaign).
//
//	go test ./internal/drill/campaign                        # bounded: 20 faults
//	go test -tags campaign -timeout 0 -v ./internal/drill/campaign \
//	    -campaign.seed 7 -campaign.faults 300 -campaign.phones 3
package campaign
