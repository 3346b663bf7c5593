package metrics

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

// LabelKeys parses a Prometheus text exposition and returns, per metric
// family, the distinct label key sets its series carry (each sorted and
// joined with ","). A family with more than one entry breaks the rule
// that a metric's labels are fixed (docs/design.md §11).
func LabelKeys(exposition []byte) (map[string][]string, error) {
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(bytes.NewReader(exposition))
	if err != nil {
		return nil, fmt.Errorf("metrics: parse the exposition: %w", err)
	}
	out := make(map[string][]string, len(fams))
	for name, f := range fams {
		sets := map[string]bool{}
		for _, m := range f.GetMetric() {
			sets[keysOf(m.GetLabel())] = true
		}
		out[name] = slices.Sorted(maps.Keys(sets))
	}
	return out, nil
}

func keysOf(ls []*dto.LabelPair) string {
	keys := make([]string, 0, len(ls))
	for _, l := range ls {
		keys = append(keys, l.GetName())
	}
	slices.Sort(keys)
	return strings.Join(keys, ",")
}
