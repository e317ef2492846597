"""What every test may count on from the process that runs them."""
import signal

# A shell starts a job it puts in the background with SIGINT ignored, and a command
# started from it would inherit that and never see the Ctrl-C the tests of stopping a
# run send. With a handler here, a command started by a test gets the default instead.
signal.signal(signal.SIGINT, signal.default_int_handler)
