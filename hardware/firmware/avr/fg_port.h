/* fg_port.h: what the portable core needs from the AVR (force-included by the Makefile):
 * atomic sections for the frame queue's shared byte count. */
#ifndef FG_PORT_H
#define FG_PORT_H
#include <avr/io.h>
#include <avr/interrupt.h>
#define FG_ATOMIC_BEGIN() uint8_t fg_sreg_ = SREG; cli()
#define FG_ATOMIC_END() SREG = fg_sreg_
#endif
