"""The dashboard's routes, one router a concern: pages, the API of the game followed, the history,
and the live feeds (events, camera)."""
