package modelserver_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/toolcall"
)

// Offered the phone's functions, the offline executor answers with a tool
// call the tools protocol reads into the action it means, streamed or not.
func TestExecutorAnswersWithToolCalls(t *testing.T) {
	srv := httptest.NewServer(modelserver.New(modelserver.Config{}))
	defer srv.Close()
	for _, stream := range []bool{false, true} {
		cfg := llm.ExecutorDefaults(srv.URL+"/v1", "", "offline-executor")
		cfg.Stream, cfg.Timeout = stream, 10*time.Second
		c := llm.New(cfg)
		ans, err := c.Chat(llm.WithTools(context.Background(), toolcall.Tools()), executorMsgs(settingsScreen))
		if err != nil {
			t.Fatal(err)
		}
		if len(ans.ToolCalls) != 1 {
			t.Fatalf("stream=%t: %d tool calls, text %q", stream, len(ans.ToolCalls), ans.Text)
		}
		resp, err := toolcall.Parse(ans.ToolCalls, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := autoglm.FormatAction(resp.Action); got != `do(action="Tap", element=[500,120])` {
			t.Fatalf("stream=%t: %s", stream, got)
		}
		// Without tools offered, the same request is answered in text.
		ans, err = c.Chat(context.Background(), executorMsgs(settingsScreen))
		if err != nil || len(ans.ToolCalls) != 0 {
			t.Fatalf("stream=%t: %+v, %v", stream, ans, err)
		}
	}
}
