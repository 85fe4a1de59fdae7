// The HorizonProvider module.
