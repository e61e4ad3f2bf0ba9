#!/usr/bin/env node
// The `tasklane-server` command (`npx @tasklane/server`): the built server, dist/main.js.
import '../dist/main.js'
