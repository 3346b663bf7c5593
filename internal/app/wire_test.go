package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

var updateWire = flag.Bool("update-wire", false, "rewrite testdata/autoglm_request.json from the code")

var wireImageRe = regexp.MustCompile(`"url":"data:(image/[a-z]+);base64,([A-Za-z0-9+/=]+)"`)

// TestAutoGLMWireGolden: for fixed inputs, the request body the autoglm
// profile's defaults send is the recorded one, byte for byte, with the
// screenshot written as its format and size: the Chinese prompt, the
// full-size PNG, the model's app label and no element list.
func TestAutoGLMWireGolden(t *testing.T) {
	env := map[string]string{"MODEL_NAME": "autoglm-phone-9b"}
	cfg, _, err := config.Load(config.LoadOptions{SearchDirs: []string{}, Env: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	shot, _, err := phonesim.New(phonesim.Config{}).Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	phone := phonesim.New(phonesim.Config{})
	in := autoglm.StepInput{Task: "打开设置", AppName: "System Home", AppPackage: "com.android.launcher3", Screenshot: shot,
		Width: phonesim.DefaultWidth, Height: phonesim.DefaultHeight, Elements: phone.UITree(),
		History: []autoglm.Turn{{Info: `{"current_app": "System Home"}`,
			Assistant: "<think>用户要打开设置，我先看桌面。</think><answer>do(action=\"Swipe\", start=[500,800], end=[500,200])</answer>"}}}
	msgs, err := autoglm.BuildMessages(ExecConfig(cfg), in, time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"do(action=\\\"Back\\\")\"}}]}\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	mc := ModelConfig(cfg.Executor.Endpoint)
	mc.BaseURL = srv.URL + "/v1"
	if _, err := llm.New(mc).Chat(context.Background(), msgs); err != nil {
		t.Fatal(err)
	}
	var images []string
	got := wireImageRe.ReplaceAllStringFunc(string(body), func(m string) string {
		sub := wireImageRe.FindStringSubmatch(m)
		data, _ := base64.StdEncoding.DecodeString(sub[2])
		c, err := png.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			t.Errorf("image %s is not a PNG: %v", sub[1], err)
		}
		images = append(images, fmt.Sprintf("%s %dx%d", sub[1], c.Width, c.Height))
		return fmt.Sprintf(`"url":"<%s %dx%d>"`, sub[1], c.Width, c.Height)
	})
	if len(images) != 1 || images[0] != "image/png 1080x2400" {
		t.Errorf("images %q, want one full-size PNG", images)
	}
	if strings.Contains(got, `\"ui_elements\": `) {
		t.Errorf("the request carries ui_elements")
	}
	const golden = "testdata/autoglm_request.json"
	if *updateWire {
		if err := os.WriteFile(golden, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (record it with go test ./internal/app -run TestAutoGLMWireGolden -update-wire)", err)
	}
	if got+"\n" != string(want) {
		t.Errorf("request body differs from %s:\n got %s\nwant %s", golden, got, want)
	}
}
