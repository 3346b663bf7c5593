package config

import (
	"fmt"
	"os"
	"strconv"
)

// FaultExitAfterActionEnv names the crash drills' fault hook: set to N > 0,
// the worker process kills itself (SIGKILL) right after its Nth device
// action reached the phone and before the action journal recorded it
// (docs/design.md §4). Unset or 0 is off; it is not a configuration key
// because no deployment should ever set it.
const FaultExitAfterActionEnv = "PHONEFLOW_FAULT_EXIT_AFTER_ACTION"

// FaultExitBeforeSendEnv is the other point of the crash drills' fault
// hook: set to N > 0, the worker kills itself right after its Nth device
// action's intent is in the journal and before its input is sent
// (docs/design.md §4).
const FaultExitBeforeSendEnv = "PHONEFLOW_FAULT_EXIT_BEFORE_SEND"

// FaultExitAfterAction reads FaultExitAfterActionEnv through env (nil
// means os.LookupEnv).
func FaultExitAfterAction(env func(string) (string, bool)) (int, error) {
	return faultCount(env, FaultExitAfterActionEnv)
}

// FaultExitBeforeSend reads FaultExitBeforeSendEnv through env (nil
// means os.LookupEnv).
func FaultExitBeforeSend(env func(string) (string, bool)) (int, error) {
	return faultCount(env, FaultExitBeforeSendEnv)
}

func faultCount(env func(string) (string, bool), name string) (int, error) {
	if env == nil {
		env = os.LookupEnv
	}
	v, ok := env(name)
	if !ok || v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s=%q: want a count of device actions (0 or unset turns the fault off)", name, v)
	}
	return n, nil
}
