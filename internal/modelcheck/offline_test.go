package modelcheck

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/modelserver"
)

// TestCheckOfflineServerEachProtocol: the executor check passes against
// the offline model server under every protocol, its answer read by that
// protocol's parser as the probe task's action.
func TestCheckOfflineServerEachProtocol(t *testing.T) {
	srv := httptest.NewServer(modelserver.New(modelserver.Config{}))
	defer srv.Close()
	for _, p := range []string{autoglm.ProtocolPhoneflow, autoglm.ProtocolAutoGLM, autoglm.ProtocolUITARS, autoglm.ProtocolMobileUse, autoglm.ProtocolTools} {
		exec := autoglm.DefaultConfig()
		exec.Protocol = p
		lc := llm.ExecutorDefaults(srv.URL+"/v1", "", "offline-executor")
		lc.Timeout = 20 * time.Second
		r := Check(context.Background(), Target{Role: RoleExecutor, LLM: lc, Exec: exec, ModelSetting: "executor.model", URLSetting: "executor.base_url"})
		if !r.OK || r.Answer != `do(action="Launch", app="Settings")` {
			t.Errorf("%s: %+v", p, r)
		}
	}
}
