package autoglm

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// screen draws a w x h white screen with each element's bounds filled red.
func screen(t testing.TB, w, h int, elems ...uitree.Element) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.White)
		}
	}
	red := color.RGBA{255, 0, 0, 255}
	for _, e := range elems {
		for y := e.Bounds.Y1; y < e.Bounds.Y2; y++ {
			for x := e.Bounds.X1; x < e.Bounds.X2; x++ {
				img.Set(x, y, red)
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var wifi = uitree.Element{Class: "android.widget.Switch", Text: "Wi-Fi", ResourceID: "com.android.settings:id/wifi_switch",
	Bounds: uitree.Bounds{X1: 860, Y1: 470, X2: 1040, Y2: 550}, Clickable: true, Checkable: true}

func TestEncodeDownscalesAndTapsLandOnElements(t *testing.T) {
	const w, h = 1080, 2400
	small := uitree.Element{Text: "x", Bounds: uitree.Bounds{X1: 20, Y1: 2300, X2: 70, Y2: 2350}, Clickable: true}
	raw := screen(t, w, h, wifi, small)
	for _, format := range []string{"png", "jpeg"} {
		img, nw, nh, err := Encode(raw, Config{MaxPixels: 400_000, Format: format})
		if err != nil {
			t.Fatal(err)
		}
		if nw*nh > 400_000 || nw*nh < 390_000 {
			t.Errorf("%s: scaled to %dx%d = %d pixels, want just under 400000", format, nw, nh, nw*nh)
		}
		if r := float64(nw) / float64(nh); r < 0.449 || r > 0.451 {
			t.Errorf("%s: aspect %.4f, want 0.45", format, r)
		}
		if img.MIME != "image/"+format {
			t.Errorf("MIME = %s", img.MIME)
		}
		dec, _, err := image.Decode(bytes.NewReader(img.Data))
		if err != nil {
			t.Fatal(err)
		}
		if dec.Bounds().Dx() != nw || dec.Bounds().Dy() != nh {
			t.Errorf("%s: encoded %v, reported %dx%d", format, dec.Bounds(), nw, nh)
		}
		for _, e := range []uitree.Element{wifi, small} {
			l := uitree.List([]uitree.Element{e}, w, h)[0]
			p := Point(l.At)
			// The model sees the scaled image: the grid point shows the element there...
			sx, sy := ToPixel(p, nw, nh)
			if r, g, _, _ := dec.At(sx, sy).RGBA(); r>>8 < 200 || g>>8 > 60 {
				t.Errorf("%s: grid %v on the scaled image shows %v, not the element", format, p, dec.At(sx, sy))
			}
			// ...and the tap on the real screen lands inside the element.
			if x, y := ToPixel(p, w, h); !e.Bounds.Contains(x, y) {
				t.Errorf("tap %v -> (%d,%d) outside %v", p, x, y, e.Bounds)
			}
		}
	}
}

func TestEncodeKeepsSmallPNG(t *testing.T) {
	raw := screen(t, 200, 100)
	img, w, h, err := Encode(raw, Config{Format: "png"})
	if err != nil || w != 200 || h != 100 || !bytes.Equal(img.Data, raw) {
		t.Errorf("small png should pass through unchanged: %dx%d err=%v", w, h, err)
	}
	img, _, _, err = Encode(raw, Config{})
	if err != nil || img.MIME != "image/jpeg" {
		t.Fatalf("default format: %s %v", img.MIME, err)
	}
	if _, err := jpeg.Decode(bytes.NewReader(img.Data)); err != nil {
		t.Errorf("default output is not JPEG: %v", err)
	}
	if _, _, _, err := Encode([]byte("Status: -1"), Config{}); err == nil || !strings.Contains(err.Error(), "PNG") {
		t.Errorf("garbage screenshot error = %v", err)
	}
}

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatal(err)
	}
	err := Config{MaxPixels: 5, Format: "gif", JPEGQuality: 101, Lang: "fr"}.Validate()
	for _, s := range []string{"max pixels", "gif", "quality", "fr"} {
		if err == nil || !strings.Contains(err.Error(), s) {
			t.Errorf("validation should mention %q: %v", s, err)
		}
	}
}

func stepInput(t testing.TB) StepInput {
	return StepInput{
		Task: "Turn on Wi-Fi", AppName: "Settings", AppPackage: "com.android.settings",
		Screenshot: screen(t, 1080, 2400, wifi), Width: 1080, Height: 2400,
		Elements:       []uitree.Element{wifi},
		PreviousAction: `do(action="Launch", app="Setings")`,
		PreviousResult: `app not found: "Setings" (did you mean: Settings)`,
		Notes:          []string{"The user says: use the quick toggle", "", "You repeated the same action 3 times;\ntry something else"},
		TaskPrompt:     "Wi-Fi is the first switch.",
		History: []Turn{{User: "Task: Turn on Wi-Fi\nScreen: normal",
			Assistant: `<think>Open settings.</think><answer>do(action="Launch", app="Setings")</answer>`}},
	}
}

func TestStepTextFormat(t *testing.T) {
	got := StepText(DefaultConfig(), stepInput(t))
	want := `Task: Turn on Wi-Fi
Current app: Settings (com.android.settings)
Previous action: do(action="Launch", app="Setings")
Previous action result: app not found: "Setings" (did you mean: Settings)
Screen: normal
Notes:
- The user says: use the quick toggle
- You repeated the same action 3 times; try something else
UI elements (at=[x,y] is the element's center on the 0-999 grid):
[1] Switch "Wi-Fi" id=wifi_switch checked=false clickable at=[879,212]`
	if got != want {
		t.Errorf("step text:\n%s\nwant:\n%s", got, want)
	}
	if l := uitree.ParseList(got); len(l) != 1 || l[0].Text != "Wi-Fi" {
		t.Errorf("element list not readable back: %+v", l)
	}
	minimal := StepText(Config{}, StepInput{Task: "Open Clock", Elements: []uitree.Element{wifi}, Width: 1080, Height: 2400})
	if minimal != "Task: Open Clock\nScreen: normal" {
		t.Errorf("minimal step text = %q (elements must be left out when disabled)", minimal)
	}
}

func TestBuildMessages(t *testing.T) {
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	in := stepInput(t)
	msgs, err := BuildMessages(DefaultConfig(), in, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 4 {
		t.Fatalf("got %d messages, want system + 2 history + user", len(msgs))
	}
	roles := []string{msgs[0].Role, msgs[1].Role, msgs[2].Role, msgs[3].Role}
	if strings.Join(roles, ",") != "system,user,assistant,user" {
		t.Errorf("roles = %v", roles)
	}
	sys := msgs[0].Text
	for _, s := range []string{"Sunday, 22 November 2026", "0 to 999", `do(action="Launch", app="name")`, "finish(message=", "Wi-Fi is the first switch."} {
		if !strings.Contains(sys, s) {
			t.Errorf("system prompt lacks %q", s)
		}
	}
	for _, m := range msgs[:3] {
		if len(m.Images) != 0 {
			t.Errorf("%s message carries an image; only the current screenshot may", m.Role)
		}
	}
	if msgs[2].Text != in.History[0].Assistant {
		t.Errorf("assistant history = %q", msgs[2].Text)
	}
	last := msgs[3]
	if last.Text != StepText(DefaultConfig(), in) || len(last.Images) != 1 || last.Images[0].MIME != "image/jpeg" {
		t.Errorf("last message: images=%d text=%q", len(last.Images), last.Text)
	}
	if len(last.Images[0].Data) >= len(in.Screenshot) && len(in.Screenshot) > 50_000 {
		t.Errorf("screenshot not reduced: %d -> %d bytes", len(in.Screenshot), len(last.Images[0].Data))
	}

	in.Sensitive, in.Screenshot, in.SensitiveReason = true, nil, "secure screen"
	msgs, err = BuildMessages(DefaultConfig(), in, now)
	if err != nil {
		t.Fatal(err)
	}
	last = msgs[len(msgs)-1]
	if len(last.Images) != 0 || !strings.Contains(last.Text, "Screen: sensitive: screenshot unavailable (secure screen)") {
		t.Errorf("sensitive step: images=%d text=%q", len(last.Images), last.Text)
	}

	if _, err := BuildMessages(DefaultConfig(), StepInput{Task: "x"}, now); err == nil || !strings.Contains(err.Error(), "Sensitive") {
		t.Errorf("missing screenshot error = %v", err)
	}
	if _, err := BuildMessages(DefaultConfig(), StepInput{Sensitive: true}, now); err == nil {
		t.Error("missing task accepted")
	}
	zh := SystemPrompt(now, "zh", "")
	if !strings.Contains(zh, "2026年11月22日") || !strings.Contains(zh, "星期日") {
		t.Errorf("zh prompt date: %.60s", zh)
	}
}

// BenchmarkEncode prints the cost of preparing a 1080x2400 screenshot.
func BenchmarkEncode(b *testing.B) {
	raw := screen(b, 1080, 2400, wifi)
	for _, cfg := range []Config{{Format: "jpeg"}, {Format: "png"}, {Format: "jpeg", MaxPixels: 400_000}} {
		b.Run(cfg.Format+"-"+map[int]string{0: "1M", 400_000: "400k"}[cfg.MaxPixels], func(b *testing.B) {
			var n int
			for b.Loop() {
				img, _, _, err := Encode(raw, cfg)
				if err != nil {
					b.Fatal(err)
				}
				n = len(img.Data)
			}
			b.ReportMetric(float64(n), "bytes/image")
			b.ReportMetric(float64(len(raw)), "bytes/input")
		})
	}
}

// TestOwnPromptSentAsWritten checks that a prompt of the user's own goes
// out byte for byte, final newline included, with no advice appended
// unless PromptAdvice asks for it.
func TestOwnPromptSentAsWritten(t *testing.T) {
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	for _, proto := range []string{ProtocolAutoGLM, ProtocolPhoneflow} {
		cfg := DefaultConfig()
		cfg.Protocol = proto
		cfg.SystemPrompt = "My prompt.\n\n  Rules stay as written.\n"
		in := StepInput{Task: "Open Settings", Sensitive: true, SensitiveReason: "secure screen", TaskPrompt: "Use the search box."}
		msgs, err := BuildMessages(cfg, in, now)
		if err != nil {
			t.Fatal(err)
		}
		if msgs[0].Text != cfg.SystemPrompt {
			t.Fatalf("%s: system %q, want the file's text as is", proto, msgs[0].Text)
		}
		cfg.PromptAdvice = true
		msgs, _ = BuildMessages(cfg, in, now)
		if !strings.HasPrefix(msgs[0].Text, cfg.SystemPrompt) || !strings.Contains(msgs[0].Text, "Use the search box.") {
			t.Fatalf("%s: with PromptAdvice: %q", proto, msgs[0].Text)
		}
	}
}
