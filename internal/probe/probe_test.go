package probe

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// listPhone is a screen with one list of rows 100 px high between y=200
// and y=1200, scrolled by swipes as a phone scrolls it.
type listPhone struct {
	rows   []string
	scroll int
	inputs []string
}

func (p *listPhone) maxScroll() int { return max(0, len(p.rows)*100-1000) }

func (p *listPhone) UITree(context.Context) ([]uitree.Element, error) {
	tree := []uitree.Element{{Class: "androidx.recyclerview.widget.RecyclerView", Scrollable: len(p.rows)*100 > 1000,
		Bounds: uitree.Bounds{X1: 0, Y1: 200, X2: 1080, Y2: 1200}}}
	for i, r := range p.rows {
		y1, y2 := 200+i*100-p.scroll, 300+i*100-p.scroll
		y1, y2 = max(y1, 200), min(y2, 1200)
		if y2 > y1 {
			tree = append(tree, uitree.Element{Text: r, Clickable: true, Bounds: uitree.Bounds{X1: 0, Y1: y1, X2: 1080, Y2: y2}})
		}
	}
	return append(tree, uitree.Element{Text: "New note", Clickable: true, Bounds: uitree.Bounds{X1: 300, Y1: 1300, X2: 780, Y2: 1400}}), nil
}

func (p *listPhone) Swipe(_ context.Context, x1, y1, x2, y2 int, _ time.Duration) error {
	p.inputs = append(p.inputs, fmt.Sprintf("swipe %d %d %d %d", x1, y1, x2, y2))
	p.scroll = min(max(p.scroll+y1-y2, 0), p.maxScroll())
	return nil
}

func rows(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("n%d", i+1)
	}
	return out
}

func TestFindOnScreenSendsNothing(t *testing.T) {
	p := &listPhone{rows: rows(30)}
	r, err := Find(context.Background(), p, Text("N3"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Found || r.Scrolled || r.Swipes != 0 || len(p.inputs) != 0 || !r.Restored {
		t.Fatalf("%+v, inputs %v", r, p.inputs)
	}
}

func TestFindBelowAndAboveTheScreenRestoresTheList(t *testing.T) {
	for _, tc := range []struct {
		name   string
		start  int
		want   string
		reason string
	}{
		{"below", 0, "n30", "the newest row at the end"},
		{"above", 1500, "n2", "a row above a list scrolled down"},
		{"middle-start", 700, "n29", "a row below a list scrolled halfway"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &listPhone{rows: rows(30), scroll: tc.start}
			r, err := Find(context.Background(), p, Text(tc.want), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Found || !r.Scrolled || r.Element.Text != tc.want {
				t.Fatalf("%s: %+v", tc.reason, r)
			}
			if p.scroll != tc.start || !r.Restored {
				t.Fatalf("%s: list left at %d, started at %d (restored %t)", tc.reason, p.scroll, tc.start, r.Restored)
			}
			if r.Swipes != len(p.inputs) || r.Swipes > DefaultSwipes {
				t.Fatalf("swipes %d, inputs %d", r.Swipes, len(p.inputs))
			}
		})
	}
}

func TestFindMissingIsBoundedAndSaysWhy(t *testing.T) {
	p := &listPhone{rows: rows(200)}
	r, err := Find(context.Background(), p, Prefix("07:30", "Gym"), Limits{Swipes: 10})
	if err != nil {
		t.Fatal(err)
	}
	if r.Found || r.Swipes > 10 || len(p.inputs) > 10 || r.Evidence == "" {
		t.Fatalf("%+v, %d inputs", r, len(p.inputs))
	}
	if p.scroll != 0 || !r.Restored {
		t.Fatalf("list left at %d", p.scroll)
	}
	// A screen with nothing to scroll is not swiped at all.
	short := &listPhone{rows: rows(3)}
	r, err = Find(context.Background(), short, Text("n9"), Limits{})
	if err != nil || r.Found || len(short.inputs) != 0 {
		t.Fatalf("%+v %v, inputs %v", r, err, short.inputs)
	}
}

func TestMatchers(t *testing.T) {
	e := uitree.Element{Text: " 07:30 Gym ", Desc: "alarm"}
	if !Prefix("07:30", "gym")(e) || Prefix("07:30", "Run")(e) || Prefix("", "")(e) {
		t.Fatal("prefix")
	}
	if !Text("alarm")(e) || !Text("07:30 gym")(e) || Text("")(e) {
		t.Fatal("text")
	}
}

// glidingPhone drags without a settle wait, and its list keeps gliding
// after the drag: the first read shows it halfway, the next where it
// stops.
type glidingPhone struct {
	listPhone
	glide  int // scroll still to come
	drags  int
	swipes int
}

func (p *glidingPhone) UITree(ctx context.Context) ([]uitree.Element, error) {
	tree, err := p.listPhone.UITree(ctx)
	if p.glide != 0 {
		p.scroll = min(max(p.scroll+p.glide, 0), p.maxScroll())
		p.glide = 0
	}
	return tree, err
}

func (p *glidingPhone) Swipe(ctx context.Context, x1, y1, x2, y2 int, d time.Duration) error {
	p.swipes++
	return p.listPhone.Swipe(ctx, x1, y1, x2, y2, d)
}

func (p *glidingPhone) DragUnsettled(_ context.Context, x1, y1, x2, y2 int, _ time.Duration) error {
	p.drags++
	p.inputs = append(p.inputs, fmt.Sprintf("drag %d %d %d %d", x1, y1, x2, y2))
	half := (y1 - y2) / 2
	p.scroll = min(max(p.scroll+half, 0), p.maxScroll())
	p.glide = y1 - y2 - half
	return nil
}

// A phone that can drag without its settle wait is dragged so, and the
// probe reads the tree until the list stops: it still finds the row at the
// end and puts the list back, with no settled swipe at all.
func TestFindWaitsForAGlidingListToStop(t *testing.T) {
	p := &glidingPhone{listPhone: listPhone{rows: rows(60)}}
	r, err := Find(context.Background(), p, Text("n60"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Found || !r.Scrolled || r.Element.Text != "n60" {
		t.Fatalf("%+v", r)
	}
	if p.swipes != 0 || p.drags == 0 || r.Swipes != p.drags {
		t.Fatalf("swipes %d, drags %d, probe counted %d", p.swipes, p.drags, r.Swipes)
	}
	if p.scroll != 0 || !r.Restored {
		t.Fatalf("list left at %d (restored %t)", p.scroll, r.Restored)
	}
}

// Only a probe that saw both ends of the list shows that something is not
// on the phone: one cut short by its budget says so.
func TestFindMissingIsCompleteOnlyWhenTheWholeListWasSeen(t *testing.T) {
	p := &listPhone{rows: rows(30)}
	r, err := Find(context.Background(), p, Text("n99"), Limits{})
	if err != nil || r.Found || !r.Complete || !r.Restored {
		t.Fatalf("whole list searched: %+v %v", r, err)
	}
	p = &listPhone{rows: rows(200)}
	r, err = Find(context.Background(), p, Text("n999"), Limits{Swipes: 10})
	if err != nil || r.Found || r.Complete {
		t.Fatalf("budget ended first: %+v %v, want not complete", r, err)
	}
	if r, _ := Find(context.Background(), &listPhone{rows: rows(3)}, Text("n9"), Limits{}); !r.Complete {
		t.Fatalf("nothing scrolls: %+v, want complete", r)
	}
}
