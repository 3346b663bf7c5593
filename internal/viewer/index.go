package viewer

import (
	"context"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/serviceerror"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/workflows"
)

// indexSize is how many of the newest goals the index lists; indexScan
// bounds how many it reads to find them where the server cannot sort.
const (
	indexSize = 100
	indexScan = 2000
)

// goalsQuery lists the goals; the ordered form is tried first.
const (
	goalsQuery   = "WorkflowType = 'GoalWorkflow'"
	goalsOrdered = goalsQuery + " ORDER BY StartTime DESC"
)

// IndexEntry is one goal in the viewer's index.
type IndexEntry struct {
	ID      string
	Status  string
	Started time.Time
}

// Index lists the newest goals, newest first: their ID, their status (the
// goal's own, or Temporal's for a goal that closed without writing it),
// and when they started. A visibility store that cannot sort (the
// embedded server's SQLite store refuses ORDER BY) is read unordered, up
// to indexScan goals, and sorted here.
func (r *Reader) Index(ctx context.Context) ([]IndexEntry, error) {
	resp, err := r.Client.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{PageSize: indexSize, Query: goalsOrdered})
	var invalid *serviceerror.InvalidArgument
	if errors.As(err, &invalid) {
		return r.unorderedIndex(ctx)
	}
	if err != nil {
		return nil, err
	}
	return entries(resp.GetExecutions()), nil
}

func (r *Reader) unorderedIndex(ctx context.Context) ([]IndexEntry, error) {
	var out []IndexEntry
	var token []byte
	for len(out) < indexScan {
		resp, err := r.Client.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			PageSize: int32(min(indexScan-len(out), 1000)), Query: goalsQuery, NextPageToken: token,
		})
		if err != nil {
			return nil, err
		}
		out = append(out, entries(resp.GetExecutions())...)
		if token = resp.GetNextPageToken(); len(token) == 0 {
			break
		}
	}
	slices.SortStableFunc(out, func(a, b IndexEntry) int { return b.Started.Compare(a.Started) })
	return out[:min(len(out), indexSize)], nil
}

func entries(execs []*workflowpb.WorkflowExecutionInfo) []IndexEntry {
	var out []IndexEntry
	for _, e := range execs {
		st := strings.ToLower(strings.TrimPrefix(e.GetStatus().String(), "WORKFLOW_EXECUTION_STATUS_"))
		if s := keyword(e.GetSearchAttributes().GetIndexedFields()[workflows.SearchAttrStatus]); s != "" {
			st = s
		}
		out = append(out, IndexEntry{ID: e.GetExecution().GetWorkflowId(), Status: st, Started: e.GetStartTime().AsTime()})
	}
	return out
}

func keyword(p *commonpb.Payload) string {
	var s string
	if p == nil || converter.GetDefaultDataConverter().FromPayload(p, &s) != nil {
		return ""
	}
	return s
}

var indexPage = template.Must(template.New("index").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>phoneflow goals</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}td{padding:.2em 1em .2em 0}.k{color:#666}</style></head>
<body><h1>Goals</h1>
{{if .Goals}}<table><tr class="k"><td>goal</td><td>status</td><td>started (UTC)</td></tr>
{{range .Goals}}<tr><td><a href="{{.Link}}">{{.ID}}</a></td><td>{{.Status}}</td><td class="k">{{.Started.UTC.Format "2006-01-02 15:04:05"}}</td></tr>
{{end}}</table>{{else}}<p class="k">No goals yet: start one with <code>starter run "…"</code>.</p>{{end}}
</body></html>
`))

// index serves /goals/: the newest goals, each linked to its page.
func (o Options) index(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
	defer cancel()
	goals, err := o.Reader.Index(ctx)
	if err != nil {
		o.Logger.Warn("step viewer: cannot list the goals", "error", err)
		http.Error(w, "cannot list the goals: "+err.Error(), http.StatusBadGateway)
		return
	}
	q := ""
	if t := r.URL.Query().Get("token"); t != "" {
		q = "?token=" + url.QueryEscape(t)
	}
	type row struct {
		IndexEntry
		Link string
	}
	var rows []row
	for _, g := range goals {
		rows = append(rows, row{g, Path + url.PathEscape(g.ID) + q})
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := indexPage.Execute(w, struct{ Goals []row }{rows}); err != nil {
		o.Logger.Warn("step viewer: render the index", "error", err)
	}
}
