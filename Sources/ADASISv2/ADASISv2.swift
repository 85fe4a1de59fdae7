// The ADASISv2 module.
