// The Horizon module.
