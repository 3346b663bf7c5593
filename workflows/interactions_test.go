package workflows

import (
	"strings"
	"testing"
	"time"

	sdkpb "go.temporal.io/api/sdk/v1"
)

// TestMetadataDescribesEveryInteraction: the goal's metadata (what the Web
// UI offers under "send a signal" or "query") gives each signal, query and
// update a description; the person's ones say what they do, and every
// other one says it is internal and must not be sent by hand.
func TestMetadataDescribesEveryInteraction(t *testing.T) {
	env := newEnv(t, &fakeWorld{})
	var md sdkpb.WorkflowMetadata
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow("__temporal_workflow_metadata")
		if err == nil {
			err = v.Get(&md)
		}
		if err != nil {
			t.Error(err)
		}
	}, 5*time.Minute)
	runGoal(t, env, GoalInput{Goal: "g", Device: "phone-1", Options: GoalOptions{Plan: []string{"Wait 10 minutes"}}})
	user := map[string]bool{SignalClarify: true, SignalApprove: true, SignalPause: true, SignalResume: true, SignalInject: true,
		SignalUserInput: true, UpdateReset: true, UpdatePersonAction: true, QueryStatus: true, QueryTodos: true}
	seen := map[string]bool{}
	d := md.GetDefinition()
	for kind, defs := range map[string][]*sdkpb.WorkflowInteractionDefinition{
		"signal": d.GetSignalDefinitions(), "query": d.GetQueryDefinitions(), "update": d.GetUpdateDefinitions()} {
		for _, def := range defs {
			name, desc := def.GetName(), def.GetDescription()
			seen[name] = true
			switch {
			case strings.HasPrefix(name, "__"):
			case desc == "":
				t.Errorf("%s %s has no description", kind, name)
			case user[name] && strings.HasPrefix(desc, internalMark):
				t.Errorf("%s %s is the person's, but its description says internal: %q", kind, name, desc)
			case !user[name] && !strings.HasPrefix(desc, internalMark):
				t.Errorf("%s %s is internal, but its description does not say so: %q", kind, name, desc)
			}
		}
	}
	for name := range user {
		if !seen[name] {
			t.Errorf("the metadata does not offer %s", name)
		}
	}
	if !seen[SignalTodoEvent] {
		t.Errorf("the metadata lists no internal signal (%s); the test saw %v", SignalTodoEvent, seen)
	}
}
