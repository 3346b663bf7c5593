package security

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/proto"

	"github.com/phoneflow/phoneflow/internal/codec"
	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/workflows"
)

// Two AES-256 keys: k1 seals the run, k2 is the key rotated in later.
const (
	key1 = "k1:a2V5LW9uZS1mb3ItcGF5bG9hZC1lbmNyeXB0aW9uISE="
	key2 = "k2:a2V5LXR3by1mb3ItcGF5bG9hZC1lbmNyeXB0aW9uISE="
)

// plainPayloads lists the payloads of h that are not encrypted, except
// search attributes, which the server must read to index them and which
// hold only a status and a serial.
func plainPayloads(h *historypb.History) []string {
	sa := map[*commonpb.Payload]bool{}
	for _, ev := range h.GetEvents() {
		for _, m := range []*commonpb.SearchAttributes{
			ev.GetWorkflowExecutionStartedEventAttributes().GetSearchAttributes(),
			ev.GetUpsertWorkflowSearchAttributesEventAttributes().GetSearchAttributes(),
			ev.GetStartChildWorkflowExecutionInitiatedEventAttributes().GetSearchAttributes(),
			ev.GetWorkflowExecutionContinuedAsNewEventAttributes().GetSearchAttributes(),
		} {
			for _, p := range m.GetIndexedFields() {
				sa[p] = true
			}
		}
	}
	var out []string
	for _, p := range payloads(h) {
		if !codec.IsEncrypted(p) && !sa[p] {
			out = append(out, string(p.GetMetadata()["encoding"])+": "+string(p.GetData()))
		}
	}
	return out
}

// TestEncryptedGoal runs a goal with encryption.keys set and checks that
// every payload the server stored is sealed, that the goal text appears
// nowhere in the raw histories, that queries and results still work
// through a client holding the keys, and that after a key rotation (new
// current key, old key kept) the old histories still read.
func TestEncryptedGoal(t *testing.T) {
	s := newStack(t, stackOptions{EncryptionKeys: key1})
	id, res := s.run(t, goalctl.StartRequest{Goal: demo.Showcase, Device: s.env.Serial}, 5*time.Minute)
	if res.Status != workflows.GoalDone {
		t.Fatalf("goal ended %s: %s (%s)", res.Status, res.Reason, res.Response)
	}
	if sent := s.env.Phone.State().MessagesSent; len(sent) != 1 || sent[0].Text != "07:00" {
		t.Fatalf("messages sent = %+v, want the alarm time sent once", sent)
	}

	// As stored: a client without keys sees only sealed payloads.
	raw := s.rawClient(t)
	hs := histories(t, raw, id, s.env.Serial, res.Todos)
	total := 0
	for wid, h := range hs {
		ps := payloads(h)
		total += len(ps)
		if plain := plainPayloads(h); len(plain) > 0 {
			t.Errorf("%s: %d payloads are not encrypted, e.g. %.200q", wid, len(plain), plain[0])
		}
		for _, p := range ps {
			if codec.IsEncrypted(p) && codec.KeyID(p) != "k1" {
				t.Errorf("%s: a payload names key %q, want k1", wid, codec.KeyID(p))
			}
		}
		b, err := proto.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range []string{demo.Showcase, "Alice", "07:00"} {
			if bytes.Contains(b, []byte(text)) {
				t.Errorf("%s: the raw history holds %q in plain text", wid, text)
			}
		}
	}
	if total < 20 {
		t.Fatalf("only %d payloads in %d histories: the check would prove little", total, len(hs))
	}
	t.Logf("%d payloads in %d histories, all sealed with k1", total, len(hs))

	// Through the stack's client (key k1): status and result read.
	ctx := context.Background()
	st, err := s.goals.Status(ctx, id)
	if err != nil || st.Phase != workflows.GoalDone {
		t.Fatalf("status through the codec: %+v, %v", st, err)
	}

	// Rotation: k2 is now current, k1 kept for old payloads.
	rotated := goalctl.New(s.clientWith(t, key2+","+key1), goalctl.Options{Namespace: s.env.Config.Temporal.Namespace})
	r2, err := rotated.Result(ctx, id)
	if err != nil || r2.Status != workflows.GoalDone || r2.Response != res.Response {
		t.Fatalf("result after rotation: %+v, %v (want %q)", r2, err, res.Response)
	}
	st2, err := rotated.Status(ctx, id)
	if err != nil || st2.Phase != workflows.GoalDone {
		t.Fatalf("status after rotation: %+v, %v", st2, err)
	}
	keys, err := codec.ParseKeys(key2 + "," + key1)
	if err != nil {
		t.Fatal(err)
	}
	c, err := codec.New(keys)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := c.Decode(payloads(hs[id]))
	if err != nil {
		t.Fatalf("decode the old history with the rotated ring: %v", err)
	}
	var joined bytes.Buffer
	for _, p := range dec {
		joined.Write(p.GetData())
	}
	if !bytes.Contains(joined.Bytes(), []byte(demo.Showcase)) {
		t.Error("the decoded history does not hold the goal text")
	}

	// A ring without k1 cannot read the run, and says which key it lacks.
	_, err = goalctl.New(s.clientWith(t, key2), goalctl.Options{Namespace: s.env.Config.Temporal.Namespace}).Result(ctx, id)
	if err == nil || !strings.Contains(err.Error(), `"k1"`) {
		t.Errorf("result with k2 only: err = %v, want one naming the missing key k1", err)
	}
	only2, _ := codec.ParseKeys(key2)
	c2, _ := codec.New(only2)
	if _, err := c2.Decode(payloads(hs[id])); !errors.Is(err, codec.ErrUnknownKey) {
		t.Errorf("decode with k2 only: err = %v, want ErrUnknownKey", err)
	}
}
