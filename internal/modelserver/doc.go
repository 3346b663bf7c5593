// Package modelserver is an offline, deterministic, OpenAI-compatible model
// server that plays both of phoneflow's models so the whole system runs
// with no API key: the planner (JSON contracts of docs/design.md §3) and the
// vision executor (AutoGLM-Phone answers of docs/design.md §3) for the
// simulator's apps. Tests, the demo and the benchmarks point the model
// clients at it; fault injection (latency, 429, 500, malformed answers,
// wrong taps) exercises the clients' error handling and the workflows'
// recovery.
//
// # HTTP API
//
// POST /v1/chat/completions takes the standard chat request (message
// content as a string or as text and image_url parts) and answers either
// one JSON completion or, with "stream": true, server-sent events: a role
// chunk, content chunks (one of them ends exactly at "</think>"), a chunk
// with finish_reason "stop", a usage chunk when stream_options.include_usage
// is set, then "data: [DONE]". GET /v1/models lists offline-planner and
// offline-executor, but any model id is accepted. The same routes are served
// without the /v1 prefix. Errors use OpenAI's {"error":{...}} shape.
//
// # Roles
//
// A model id containing "planner" is answered as the planner, one
// containing "executor" as the executor. Otherwise a request with an image
// part is an executor request, and a request whose system prompt starts
// with "You are the planner"/"You are the replanner" (or whose last message
// carries a JSON context with a "goal") is a planner request. Before all
// of these, a system prompt starting "You are the verifier" makes a
// verifier request, one starting "You are the correction writer" a
// stuck correction request (docs/design.md §9, §2), and one starting
// "You are the guidance writer" a guidance rewrite (docs/design.md §2
// Guards), whatever the model id. A naive executor whose system prompt
// carries the guidance line to check each tap repairs its missed taps.
//
// # Planner rules
//
// The planner reads the fenced JSON context at the end of the last user
// message; a context with a "done" key is a replan.
//
// Plan:
//  1. The goal is split into todos. Strong separators always split
//     (" and then ", ", then ", " then ", ";", "，然后", "然后", "并且",
//     "，再"); " and " and ", " split only when the text after them starts
//     with a verb (open, turn, send, create, read, 打开, 发…) or names another
//     switch or app for the same verb. Separators inside quotes never split.
//  2. A clause without a verb takes the previous clause's verb:
//     "Turn on Wi-Fi and Bluetooth" → "Turn on Wi-Fi", "Turn on Bluetooth".
//     A clause of no known kind that names no app inherits the app of the
//     previous clause ("Open Notes and scroll down" → "… in Notes").
//  3. A message clause after a reading clause whose text is missing or a
//     pronoun ("send it to Alice") becomes "Send Alice a message with
//     what was read" (plain words: people see the plan), filled in at
//     replan time.
//  4. Each user_messages entry is split the same way and appended.
//  5. Missing details are taken from the answers (forms such as
//     "to Alice: hello", "Alice: hello", "Alice, hello"; a time such as
//     "7:30" or "7am" for an alarm); if still missing, the answer is
//     ask_user: a message with no recipient or no text ("Who should I send
//     the message to, and what should it say?"), an alarm with no time.
//  6. task_type comes from the first clause of a known kind: switches and
//     brightness → settings, messages → messaging, alarms → alarm, notes →
//     notes, reading a phone number → contacts, other reading → reading,
//     opening an app → that app's type; else general.
//
// Replan:
//  1. New user_messages clauses not already planned or done are appended.
//  2. If the last done todo failed, it is retried once (put first again);
//     after its second failure it is skipped and the plan goes on.
//  3. With nothing remaining the answer is done, with a response that lists
//     each done todo with its result (so what reading todos read reaches
//     the user) and each todo that was not done.
//  4. A remaining todo containing "{result}", "the time read" or "what was
//     read" gets the result of the last successful todo substituted
//     ("Send Alice a message with what was read" → "Send Alice a message:
//     07:00").
//  5. Otherwise the remaining todos are replanned as they are (after the
//     same answer/ask_user completion as in planning).
//
// # Executor persona
//
// The executor reads the last user message (Task, Current app, Previous
// action and its result, the element list written by uitree.FormatList)
// and the actions of its own earlier turns, and answers
// <think>…</think><answer>ACTION</answer>. It never looks at the image. It
// solves the simulator's apps:
//   - open an app: Launch unless it is already in front, then finish;
//   - Wi-Fi, Bluetooth, Airplane mode: tap the switch row while its checked
//     state differs, then finish with the new state;
//   - brightness: one tap on "+"/"-" for up/down, or taps until the value
//     equals a requested percentage (rounded to the 10% steps);
//   - messages: Launch Messages → tap the conversation (or Start chat and
//     the contact) → tap the text field → Type → tap Send → finish;
//   - alarms: Clock → Add alarm → tap Time → Type HH:MM → tap Label →
//     Type → Save → finish once the new row is listed;
//   - notes: Notes → New note (or the note to edit) → title and body the
//     same way → Save → finish; an editor that holds another note is left
//     with Back untouched, and a new note saved before its text was in is
//     opened again and completed;
//   - reading: the Android version, build number or model (Settings, swipe
//     up until "About phone" is listed, open it, finish with the line), the
//     first alarm's time (finish with "HH:MM"), a contact's phone number,
//     the brightness, a switch's state;
//   - Bank: Take_over asking the user to sign in themselves.
//
// A field counts as focused when the dump marks it focused or the previous
// action tapped it. An element that is not listed is searched for with at
// most 5 swipes in a row, then Back; after 10 swipes the persona finishes
// saying what it could not find. An action that just failed (the previous
// action result is not "ok") is not repeated: a failed Launch is followed
// by Home and a tap on the launcher icon, anything else by Back; the same
// holds when a note says the persona seems stuck. A note asking to "finish
// now" ends the todo with a finish saying it was stopped. Other notes
// (instructions injected by people) are not interpreted. Taps on
// the Bank "Sign in" button and on elements whose text contains "Pay",
// "Delete" or "Transfer" carry message="…" so the workflow asks for
// approval.
//
// Single-loop mode: when the Task holds several clauses (SplitGoal gives
// more than one), the persona works through them in order. When a clause
// is complete it answers do(action="Note", message="Done i/n: <result>")
// instead of finishing; counting those Notes in the earlier assistant turns
// tells it which clause is current and what the earlier ones returned (a
// {result} placeholder gets the previous clause's result), and only the
// actions after the last Note count for the current clause. After the last
// clause it finishes with all results joined by "; ". The workflow also
// repeats noted text among the request's notes ("Noted: Done 1/2: 07:00");
// those count too, so progress survives a reset of the earlier turns.
//
// # Faults and determinism
//
// Every completion request draws the same number of values from one seeded
// math/rand source guarded by a mutex, so for a given seed and request
// order the faults are reproducible; with concurrent clients, the order in
// which their requests arrive decides which request gets which fault. At
// most one fault is injected per request, checked in this order: 429 (with
// Retry-After and retry-after-ms headers), 500, a malformed answer (for
// the executor: no action, an unknown action or a truncated do(…); for the
// planner: broken JSON, "planned" without a plan, or an unknown status),
// and a wrong tap (a Tap answer moved to another on-screen point).
package modelserver
