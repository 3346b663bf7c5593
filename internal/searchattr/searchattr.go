// Package searchattr knows phoneflow's custom search attributes on a
// Temporal namespace: what they are, the command that registers them, and
// how to tell that a frontend serves them (docs/design.md §14).
package searchattr

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/phoneflow/phoneflow/workflows"
)

// Attributes are the custom search attributes phoneflow needs on its
// namespace: goals are started with them and `list` filters on them. A
// goal's phone labels are a keyword list, so `PhoneflowLabels = 'shop'`
// matches a goal on any phone that carries the label.
var Attributes = map[string]enumspb.IndexedValueType{
	workflows.SearchAttrStatus: enumspb.INDEXED_VALUE_TYPE_KEYWORD,
	workflows.SearchAttrDevice: enumspb.INDEXED_VALUE_TYPE_KEYWORD,
	workflows.SearchAttrLabels: enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST,
}

// TypeName is an attribute's type as the Temporal CLI and tcld spell it:
// Keyword or KeywordList.
func TypeName(name string) string {
	if Attributes[name] == enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST {
		return "KeywordList"
	}
	return "Keyword"
}

// Names returns the attributes' names in order.
func Names() []string {
	var names []string
	for n := range Attributes {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// RegisterCommand is what an operator runs to register the search
// attributes on namespace with the Temporal CLI.
func RegisterCommand(namespace string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "temporal operator search-attribute create --namespace %s", namespace)
	for _, name := range Names() {
		fmt.Fprintf(&b, " --name %s --type %s", name, TypeName(name))
	}
	return b.String()
}

// CloudRegisterCommand is the same for a Temporal Cloud namespace, where
// search attributes are added through the cloud's own tool.
func CloudRegisterCommand(namespace string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tcld namespace search-attributes add --namespace %s", namespace)
	for _, name := range Names() {
		fmt.Fprintf(&b, " --search-attribute %s=%s", name, TypeName(name))
	}
	return b.String()
}

// ErrNotServed is wrapped by AwaitServed's error when the frontend still
// refuses the attributes at the end of the wait.
var ErrNotServed = errors.New("the Temporal frontend does not serve phoneflow's search attributes yet")

// Unmapped reports an error of a frontend that has not (yet) mapped one of
// phoneflow's search attributes for the namespace: a start, an upsert or a
// query that names it is refused with InvalidArgument ("Namespace default
// has no mapping defined for search attribute PhoneflowStatus", or a query's
// "… is not a valid search attribute").
func Unmapped(err error) bool {
	var inv *serviceerror.InvalidArgument
	if err == nil || !errors.As(err, &inv) {
		return false
	}
	for _, n := range Names() {
		if strings.Contains(inv.Error(), n) {
			return true
		}
	}
	return false
}

// AwaitOptions bound AwaitServed.
type AwaitOptions struct {
	// For is how long to wait at most (DefaultAwait when 0).
	For time.Duration
	// Every is the time between two probes (DefaultAwaitEvery when 0).
	Every time.Duration
	// Waiting, when set, is called once, at the first refused probe, with
	// the frontend's answer: the caller says it is waiting and why.
	Waiting func(refused error)
}

// How long AwaitServed waits by default, and how often it asks: a frontend
// refreshes its copy of a namespace (where SQL visibility keeps the
// attributes' aliases) every few seconds (Temporal's
// system.namespaceCacheRefreshInterval), a cluster of several frontends
// each on its own.
const (
	DefaultAwait      = 2 * time.Minute
	DefaultAwaitEvery = 250 * time.Millisecond
)

// AwaitServed returns once the frontend ws reaches answers a visibility
// query that names every attribute: the frontend's namespace cache maps
// them, as a goal's start needs. Registration is stored at once, but each
// frontend learns of it on its next namespace refresh, so a goal started
// in the moment after registration is refused ("no mapping defined for
// search attribute"). A frontend that cannot be asked for another reason
// (visibility denied to this role, an older server) is not waited for:
// the start itself then says what is wrong. At the end of the bound the
// error wraps ErrNotServed and the frontend's last answer.
func AwaitServed(ctx context.Context, ws workflowservice.WorkflowServiceClient, namespace string, o AwaitOptions) error {
	if o.For <= 0 {
		o.For = DefaultAwait
	}
	if o.Every <= 0 {
		o.Every = DefaultAwaitEvery
	}
	var q []string
	for _, n := range Names() {
		q = append(q, fmt.Sprintf("%s = 'phoneflow-probe'", n))
	}
	query := strings.Join(q, " AND ")
	deadline := time.Now().Add(o.For)
	told := false
	for {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, err := ws.CountWorkflowExecutions(cctx, &workflowservice.CountWorkflowExecutionsRequest{Namespace: namespace, Query: query})
		cancel()
		switch {
		case err == nil:
			return nil
		case !Unmapped(err) && !retryable(err):
			return nil
		case ctx.Err() != nil:
			return fmt.Errorf("%w on namespace %s: %v", ErrNotServed, namespace, ctx.Err())
		case time.Now().After(deadline):
			return fmt.Errorf("%w: namespace %s lists them, but its frontend still refuses them after %s (%v). "+
				"Each frontend refreshes its copy of the namespace every system.namespaceCacheRefreshInterval (a few seconds by default): "+
				"check that every frontend uses the same persistence store, or restart the frontend services",
				ErrNotServed, namespace, o.For, err)
		}
		if !told && o.Waiting != nil && Unmapped(err) {
			told = true
			o.Waiting(err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(o.Every):
		}
	}
}

// retryable is an answer that says nothing of the attributes: the
// frontend did not answer in time or is busy.
func retryable(err error) bool {
	var un *serviceerror.Unavailable
	var busy *serviceerror.ResourceExhausted
	var nf *serviceerror.NamespaceNotFound
	return errors.As(err, &un) || errors.As(err, &busy) || errors.As(err, &nf) || errors.Is(err, context.DeadlineExceeded)
}
