package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/phoneflow/phoneflow/internal/searchattr"
)

// SearchAttributes are the custom search attributes phoneflow needs on its
// namespace: goals are started with them and `list` filters on them.
var SearchAttributes = searchattr.Attributes

// ErrSearchAttributes is wrapped by the error EnsureSearchAttributes
// returns when the namespace lacks them and the worker may not add them.
var ErrSearchAttributes = errors.New("phoneflow's search attributes are not registered")

// RegisterCommand is what an operator runs to register the search
// attributes on namespace with the Temporal CLI.
func RegisterCommand(namespace string) string { return searchattr.RegisterCommand(namespace) }

// CloudRegisterCommand is the same for a Temporal Cloud namespace.
func CloudRegisterCommand(namespace string) string { return searchattr.CloudRegisterCommand(namespace) }

func sortedAttrs() []string { return searchattr.Names() }

// EnsureSearchAttributes checks that namespace has phoneflow's search
// attributes with their types and adds the missing ones through the
// operator service, as `temporal operator search-attribute create` does.
// Where the cluster does not allow that (a hosted namespace, an
// authorizer that denies it), the error says exactly what to run
// (docs/design.md §14). With ws set, it then waits (searchattr.AwaitServed)
// until the frontend serves them, registered now or moments ago by another
// worker, so the worker does not report itself ready while a goal's start
// would be refused for them.
func EnsureSearchAttributes(ctx context.Context, op operatorservice.OperatorServiceClient, ws workflowservice.WorkflowServiceClient, namespace string, log *slog.Logger) error {
	listed, err := ensureRegistered(ctx, op, namespace, log)
	if err != nil || !listed || ws == nil {
		return err
	}
	began := time.Now()
	waited := false
	err = searchattr.AwaitServed(ctx, ws, namespace, searchattr.AwaitOptions{Waiting: func(refused error) {
		waited = true
		log.Info("waiting for the Temporal frontend to serve phoneflow's search attributes (registered moments ago)",
			"namespace", namespace, "frontend_says", refused.Error(), "bound", searchattr.DefaultAwait.String())
	}})
	if err != nil {
		return err
	}
	if waited {
		log.Info("the Temporal frontend serves phoneflow's search attributes", "namespace", namespace,
			"after", time.Since(began).Round(time.Millisecond).String())
	}
	return nil
}

// ensureRegistered checks the attributes and adds the missing ones; listed
// is false when the cluster could not be asked.
func ensureRegistered(ctx context.Context, op operatorservice.OperatorServiceClient, namespace string, log *slog.Logger) (listed bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	resp, err := op.ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		// Not knowing is no reason to refuse to serve: a server that is
		// away for a moment, or a role that may not list them.
		log.Warn("could not check phoneflow's search attributes; if starting a goal fails with an unknown search attribute, register them",
			"namespace", namespace, "error", err, "run", RegisterCommand(namespace), "temporal_cloud", CloudRegisterCommand(namespace))
		return false, nil
	}
	missing := map[string]enumspb.IndexedValueType{}
	for _, name := range sortedAttrs() {
		want := SearchAttributes[name]
		got, ok := resp.GetCustomAttributes()[name]
		switch {
		case !ok:
			missing[name] = want
		case got != want:
			return true, fmt.Errorf("%w: %s on namespace %s has type %s, phoneflow needs %s: remove it "+
				"(`temporal operator search-attribute remove --namespace %s --name %s`) and run `%s`",
				ErrSearchAttributes, name, namespace, got, want, namespace, name, RegisterCommand(namespace))
		}
	}
	if len(missing) == 0 {
		return true, nil
	}
	_, err = op.AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: namespace, SearchAttributes: missing})
	var exists *serviceerror.AlreadyExists
	if err != nil && !errors.As(err, &exists) {
		return true, fmt.Errorf("%w: namespace %s lacks %s and the worker could not add them (%v). Register them once, as an operator: `%s` "+
			"(Temporal Cloud: `%s`), then start the worker again",
			ErrSearchAttributes, namespace, strings.Join(slices.Sorted(maps.Keys(missing)), ", "), err,
			RegisterCommand(namespace), CloudRegisterCommand(namespace))
	}
	log.Info("registered phoneflow's search attributes", "namespace", namespace, "attributes", sortedAttrs())
	return true, nil
}
