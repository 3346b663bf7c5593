package autoglm_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// A request built by BuildMessages must be understood by the offline model
// server, and its answer must parse into an action that hits the element.
func TestOfflineExecutorStep(t *testing.T) {
	srv := httptest.NewServer(modelserver.New(modelserver.Config{}))
	defer srv.Close()
	const w, h = 1080, 2400
	wifi := uitree.Element{Class: "android.widget.Switch", Text: "Wi-Fi", ResourceID: "com.android.settings:id/wifi_switch",
		Bounds: uitree.Bounds{X1: 40, Y1: 260, X2: 1040, Y2: 340}, Clickable: true, Checkable: true}
	elems := []uitree.Element{
		{Class: "android.widget.TextView", Text: "Settings", Bounds: uitree.Bounds{X1: 40, Y1: 100, X2: 1040, Y2: 180}},
		wifi,
		{Class: "android.widget.Switch", Text: "Bluetooth", ResourceID: "com.android.settings:id/bluetooth_switch",
			Bounds: uitree.Bounds{X1: 40, Y1: 380, X2: 1040, Y2: 460}, Clickable: true, Checkable: true},
	}
	var shot bytes.Buffer
	if err := png.Encode(&shot, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	in := autoglm.StepInput{
		Task: "Turn on Wi-Fi", AppName: "Settings", AppPackage: "com.android.settings",
		Screenshot: shot.Bytes(), Width: w, Height: h, Elements: elems,
		PreviousAction: `do(action="Launch", app="Settings")`, PreviousResult: "ok",
	}
	msgs, err := autoglm.BuildMessages(autoglm.DefaultConfig(), in, time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	for _, stream := range []bool{true, false} {
		cfg := llm.ExecutorDefaults(srv.URL+"/v1", "", modelserver.ExecutorModel)
		cfg.Stream = stream
		ans, err := llm.New(cfg).Chat(context.Background(), msgs)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := autoglm.Parse(ans.Text)
		if err != nil {
			t.Fatalf("stream=%v: answer %q: %v", stream, ans.Text, err)
		}
		if resp.Action.Name != autoglm.ActionTap || resp.Action.Element == nil {
			t.Fatalf("stream=%v: action = %s, want a tap", stream, autoglm.FormatAction(resp.Action))
		}
		if x, y := autoglm.ToPixel(*resp.Action.Element, w, h); !wifi.Bounds.Contains(x, y) {
			t.Errorf("stream=%v: tap %v -> (%d,%d) misses the Wi-Fi switch %v", stream, *resp.Action.Element, x, y, wifi.Bounds)
		}
		if resp.Thinking == "" {
			t.Errorf("stream=%v: no reasoning in %q", stream, ans.Text)
		}
	}
}
