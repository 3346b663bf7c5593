package campaign

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

type (
	goalResult = workflows.GoalResult
	phoneState = phonesim.State
)

// table is the campaign's one table.
type table struct {
	seed           int64
	phones         int
	faults         map[string]int
	drawn          []weighted // the kinds this run could draw
	cluster        bool       // the goals ran on the cluster on PostgreSQL
	other          string     // the commit of the deploy onto another build
	dbRestarts     map[string]int
	kinds          map[string]int
	status         map[string]int
	goals          int
	noResult       int
	asked          int
	commits        int
	duplicates     int
	lost           int
	claimedNotSent int
	inputTwice     int
	resent         int
	dishonest      int
	faultsAt, wall time.Duration
}

func (t *table) byKind(k string) {
	if t.kinds == nil {
		t.kinds, t.status = map[string]int{}, map[string]int{}
	}
	t.kinds[k]++
}

// couldDraw reports whether the run could inject kind: drawn, or a hook
// kill or the once-a-run deploy, which every run has.
func (t *table) couldDraw(kind string) bool {
	switch kind {
	case kindKillIntent, kindKillRecord, kindDeploy:
		return true
	}
	for _, d := range t.drawn {
		if d.kind == kind {
			return true
		}
	}
	return false
}

func (t *table) String() string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	server := "the embedded Temporal server (SQLite)"
	if t.cluster {
		server = "the Temporal cluster on PostgreSQL"
	}
	fmt.Fprintf(tw, "campaign seed %d, %d phones, %s\t\n", t.seed, t.phones, server)
	total := 0
	for _, k := range tableKinds {
		n := t.faults[k]
		total += n
		switch {
		case n == 0 && !t.couldDraw(k):
			fmt.Fprintf(tw, "  %s\tnot in this run\n", k)
		case k == kindClusterDB:
			fmt.Fprintf(tw, "  %s\t%d (fast %d, crash %d)\n", k, n, t.dbRestarts["fast"], t.dbRestarts["crash"])
		case k == kindDeployOther:
			fmt.Fprintf(tw, "  %s\t%d (onto %.12s)\n", k, n, t.other)
		default:
			fmt.Fprintf(tw, "  %s\t%d\n", k, n)
		}
	}
	fmt.Fprintf(tw, "faults injected\t%d\n", total)
	var kinds []string
	for _, k := range goalKinds {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, t.kinds[k]))
	}
	var status []string
	for _, s := range sortedKeys(t.status) {
		status = append(status, fmt.Sprintf("%s %d", s, t.status[s]))
	}
	if t.noResult > 0 {
		status = append(status, fmt.Sprintf("unfinished %d", t.noResult))
	}
	fmt.Fprintf(tw, "goals\t%d (%s; %s)\n", t.goals, strings.Join(kinds, ", "), strings.Join(status, ", "))
	fmt.Fprintf(tw, "questions answered by the person\t%d\n", t.asked)
	fmt.Fprintf(tw, "commits on the phones\t%d\n", t.commits)
	fmt.Fprintf(tw, "duplicates\t%d\n", t.duplicates)
	fmt.Fprintf(tw, "lost (done, not on the phone)\t%d\n", t.lost)
	fmt.Fprintf(tw, "claimed-not-sent (applied, not in the input log)\t%d\n", t.claimedNotSent)
	fmt.Fprintf(tw, "inputs sent again, judged not applied by the journal\t%d\n", t.resent)
	fmt.Fprintf(tw, "inputs more often than decided\t%d\n", t.inputTwice)
	fmt.Fprintf(tw, "dishonest (done, the phone disagrees)\t%d\n", t.dishonest)
	rate := 0.0
	if t.faultsAt > 0 {
		rate = float64(total) / t.faultsAt.Minutes()
	}
	fmt.Fprintf(tw, "wall time\t%s (faults over %s, %.1f faults/min)\n", t.wall.Round(time.Second), t.faultsAt.Round(time.Second), rate)
	_ = tw.Flush()
	return b.String()
}
