package planner

// executorLimits tells both planner prompts what the executor can and
// cannot do, so each todo is written for the executor that runs it
// (docs/design.md §3). Every line is true of phoneflow's executor: a todo
// starts with nothing but its own text, its Note and its earlier turns
// end with it, and it has no clipboard, file or network action.
const executorLimits = `What the executor can and cannot do:
- It sees only its own todo's text and the phone's screen (a screenshot, and on some setups the screen's element list); it does not see the goal, the other todos, their results or the memory.
- It keeps no memory from one todo to the next: a name, number, time or text that an earlier todo read must be written into the todo that uses it, as the earlier todo's result gave it.
- It launches apps, taps, long-presses, double-taps, types, swipes, goes back or home and waits a few seconds. It cannot read or paste the clipboard, open files, reach the internet outside the phone's apps,, or watch for notifications (a todo that only waits for a message or a code does that).
- It may ask the user a question or hand the phone to the user for a login, a captcha or a payment; a todo that needs the user's decision can say so.
- It reports what it read in its result when it finishes, and its finish is checked against the phone before the todo counts as done.
`
