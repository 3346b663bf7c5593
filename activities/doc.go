// Package activities holds everything phoneflow's workflows do outside
// deterministic code: planner and executor model calls, observing and
// driving phones, the blob store and prompt memory. Activities are methods
// on Activities, which holds their dependencies behind small interfaces;
// their inputs and results are small plain structs so a goal's history
// never carries images, UI trees or whole model transcripts.
//
// Temporal's retry policy is the one place retries are decided: model
// errors the client classifies as retryable come back as retryable
// application errors (with the server's Retry-After as NextRetryDelay),
// permanent ones as non-retryable errors; device errors are retried, and a
// retried action whose screen already changed is not sent twice. Outcomes
// the model can learn from (an unparseable answer, an app that is not
// installed, a planner answer that breaks the contract) are results, not
// errors, so the workflow can count them and feed them back.
package activities
