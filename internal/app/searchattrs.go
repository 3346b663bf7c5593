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

	"github.com/phoneflow/phoneflow/workflows"
)

// SearchAttributes are the custom search attributes phoneflow needs on its
// namespace: goals are started with them and `list` filters on them.
var SearchAttributes = map[string]enumspb.IndexedValueType{
	workflows.SearchAttrStatus: enumspb.INDEXED_VALUE_TYPE_KEYWORD,
	workflows.SearchAttrDevice: enumspb.INDEXED_VALUE_TYPE_KEYWORD,
}

// ErrSearchAttributes is wrapped by the error EnsureSearchAttributes
// returns when the namespace lacks them and the worker may not add them.
var ErrSearchAttributes = errors.New("phoneflow's search attributes are not registered")

// RegisterCommand is what an operator runs to register the search
// attributes on namespace with the Temporal CLI.
func RegisterCommand(namespace string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "temporal operator search-attribute create --namespace %s", namespace)
	for _, name := range sortedAttrs() {
		fmt.Fprintf(&b, " --name %s --type Keyword", name)
	}
	return b.String()
}

// CloudRegisterCommand is the same for a Temporal Cloud namespace, where
// search attributes are added through the cloud's own tool.
func CloudRegisterCommand(namespace string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tcld namespace search-attributes add --namespace %s", namespace)
	for _, name := range sortedAttrs() {
		fmt.Fprintf(&b, " --search-attribute %s=Keyword", name)
	}
	return b.String()
}

func sortedAttrs() []string {
	var names []string
	for n := range SearchAttributes {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// EnsureSearchAttributes checks that namespace has phoneflow's search
// attributes with their types and adds the missing ones through the
// operator service, as `temporal operator search-attribute create` does.
// Where the cluster does not allow that (a hosted namespace, an
// authorizer that denies it), the error says exactly what to run
// (docs/design.md §14).
func EnsureSearchAttributes(ctx context.Context, op operatorservice.OperatorServiceClient, namespace string, log *slog.Logger) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	resp, err := op.ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		// Not knowing is no reason to refuse to serve: a server that is
		// away for a moment, or a role that may not list them.
		log.Warn("could not check phoneflow's search attributes; if starting a goal fails with an unknown search attribute, register them",
			"namespace", namespace, "error", err, "run", RegisterCommand(namespace), "temporal_cloud", CloudRegisterCommand(namespace))
		return nil
	}
	missing := map[string]enumspb.IndexedValueType{}
	for _, name := range sortedAttrs() {
		want := SearchAttributes[name]
		got, ok := resp.GetCustomAttributes()[name]
		switch {
		case !ok:
			missing[name] = want
		case got != want:
			return fmt.Errorf("%w: %s on namespace %s has type %s, phoneflow needs %s: remove it "+
				"(`temporal operator search-attribute remove --namespace %s --name %s`) and run `%s`",
				ErrSearchAttributes, name, namespace, got, want, namespace, name, RegisterCommand(namespace))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	_, err = op.AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{Namespace: namespace, SearchAttributes: missing})
	var exists *serviceerror.AlreadyExists
	if err != nil && !errors.As(err, &exists) {
		return fmt.Errorf("%w: namespace %s lacks %s and the worker could not add them (%v). Register them once, as an operator: `%s` "+
			"(Temporal Cloud: `%s`), then start the worker again",
			ErrSearchAttributes, namespace, strings.Join(slices.Sorted(maps.Keys(missing)), ", "), err,
			RegisterCommand(namespace), CloudRegisterCommand(namespace))
	}
	log.Info("registered phoneflow's search attributes", "namespace", namespace, "attributes", sortedAttrs())
	return nil
}
